import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import curl`, held to curl itself: each command below is run by the real curl
/// against an echo server on 127.0.0.1, then imported, and the imported target is called
/// against the same server; both requests must arrive the same: method, path and query,
/// headers (but `User-Agent`), body. The credentials, never written into the spec, are given
/// to the call as the variables the import names.
final class CurlImportTests: XCTestCase {
    /// The commands, as a user pastes them; `URL` is the echo server's base URL.
    static let commands = [
        #"curl 'URL/search?q=moya&page=2'"#,
        #"curl -X POST URL/api/v1/send -H 'Content-Type: application/json' --data '{"email_id": "tem_123"}'"#,
        #"curl -XPOST -did=1234 URL/form"#,
        #"curl -X POST URL/multi --data "foo=bar" --data "baz=qux""#,
        #"curl URL/encode --data-urlencode 'name=J Doe & co' --data-urlencode 'x=1+1'"#,
        #"curl URL/json --json '{"a":[1,2]}'"#,
        #"curl -G URL/get -d 'id=1234' -d 'sort=name'"#,
        #"curl --url URL/users/7 -u 'ann:s3cret pw' -H 'Accept: application/json'"#,
        #"curl URL/me -H 'Authorization: Bearer abc.def' -H 'X-Api-Key: k-123' -b 'sid=xyz'"#,
        #"curl -X PUT URL/items/9 -A 'moya-test/1' -e 'https://example.com/' -H $'X-Note: it\'s \x41'"#,
        "curl URL/continued \\\n  -H 'X-One: 1' \\\n  -H 'X-Two: two words'",
        #"curl -s -S -L -X DELETE "URL/items/10?force=true""#,
        #"curl URL/upload -F note=hello -F 'file=@note.txt;type=text/plain'"#,
        #"curl -X PATCH URL/raw --data-raw '@not-a-file' -H 'Content-Type: text/plain'"#,
    ]

    func testEachImportedTargetSendsWhatCurlSends() async throws {
        try Repository.requirePrograms(["curl", "bash"])
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "curl-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try "a note\n".write(toFile: folder + "/note.txt", atomically: true, encoding: .utf8)
        let commands = Self.commands.map { $0.replacing("URL", with: server.baseURL) }
        try (commands.joined(separator: "\n") + "\n").write(
            toFile: folder + "/requests.sh", atomically: true, encoding: .utf8)

        let (status, out, error) = await CommandTests.run(
            ["import", "curl", "requests.sh", "--service", "t", "-o", "specs/", "--report", "report.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        let spec = try String(contentsOfFile: folder + "/specs/t.yaml", encoding: .utf8)
        XCTAssertFalse(
            spec.contains("s3cret") || spec.contains("abc.def") || spec.contains("k-123") || spec.contains("xyz"), spec)
        let names = spec.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else { return nil }
            return String(line.dropFirst(2).dropLast())
        }
        XCTAssertEqual(names.count, commands.count, spec)

        let environment = [
            "T_PASSWORD": "s3cret pw", "T_TOKEN": "abc.def", "T_X_API_KEY": "k-123", "T_COOKIE": "sid=xyz",
        ]
        for (index, command) in commands.enumerated() where index < names.count {
            let sent = try Launch.run(
                URL(fileURLWithPath: "/bin/bash"), ["-c", command + " -s"], environment: nil, in: folder)
            XCTAssertEqual(sent.status, 0, "\(command): \(sent.error)")
            var arguments = ["call", "t.\(names[index])", "--specs", "specs"]
            if spec.contains("\(names[index]):\n") && command.contains("@note.txt") {
                arguments += ["--file", "note.txt"]
            }
            let (called, echoed, callError) = await CommandTests.run(arguments, environment: environment, in: folder)
            XCTAssertEqual(called, 0, "\(command): \(callError)")
            XCTAssertEqual(try Self.request(echoed), try Self.request(sent.out), command)
        }
    }

    /// Insomnia's curl fixtures, imported and each target printed by `call --dry-run --json`:
    /// the method, the URL with its query, every header and the body of Insomnia's expected
    /// output, the credentials given as the variables the import names. Where Insomnia's
    /// output differs from what curl sends, curl wins, and the difference is named here:
    /// `dollar-sign` (Insomnia reads `\'` inside `$'…'` as a backslash; bash as a quote),
    /// `question-mark` (a query key with no `=` is sent as `pretty=`), a URL with no path
    /// (curl sends `/`), and an `Accept-Encoding` the command sets (moya-cli asks for gzip
    /// and deflate itself, and the import says so).
    func testInsomniasFixturesSendWhatTheyExpect() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let inputs = shared + "/insomnia-fixtures/curl"
        let outputs = shared + "/insomnia-fixtures/outputs-2024-03/curl"
        let folder = NSTemporaryDirectory() + "curl-fixtures-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try "a file\n".write(toFile: folder + "/file.txt", atomically: true, encoding: .utf8)
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: inputs).sorted()
        where name.hasSuffix("-input.sh") {
            let stem = name.dropLast("-input.sh".count).replacing("skip-squished", with: "squished")
            let data = try Data(contentsOf: URL(fileURLWithPath: outputs + "/\(stem)-output.json"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let requests = (object["resources"] as? [[String: Any]] ?? [])
                .filter { $0["_type"] as? String == "request" && ($0["url"] as? String ?? "") != "" }
            let specs = folder + "/\(stem)"
            let (status, _, error) = await CommandTests.run(
                ["import", "curl", inputs + "/" + name, "--service", "t", "-o", specs + "/"], in: folder)
            XCTAssertEqual(status, requests.isEmpty ? 65 : 0, "\(name): \(error)")
            guard !requests.isEmpty else { continue }
            let spec = try String(contentsOfFile: specs + "/t.yaml", encoding: .utf8)
            // What an import writes validates and passes its checks on the samples.
            let (valid, validOut, validError) = await CommandTests.run(["validate", specs])
            XCTAssertEqual(valid, 0, validError)
            XCTAssertTrue(validOut.hasPrefix("ok: 1 service"), validOut)
            let (checked, checkOut, _) = await CommandTests.run(["check", specs, "--stub", "immediate"])
            XCTAssertEqual(checked, 0, checkOut)
            let targets = spec.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else { return nil }
                return String(line.dropFirst(2).dropLast())
            }
            XCTAssertEqual(targets.count, requests.count, spec)
            for (request, target) in zip(requests, targets) {
                var environment: [String: String] = [:]
                var expectedHeaders: [String: String] = [:]
                for header in request["headers"] as? [[String: String]] ?? [] {
                    guard let key = header["name"], let value = header["value"] else { continue }
                    expectedHeaders[key.lowercased()] = value
                }
                expectedHeaders["accept-encoding"] = nil
                if stem == "dollar-sign" {
                    expectedHeaders["cookie"] =
                        "CookieTestConsent={stamp:'" + String(repeating: "x", count: 66) + "=='%2Cnecessary..."
                }
                if let cookie = expectedHeaders["cookie"] { environment["T_COOKIE"] = cookie }
                if let auth = request["authentication"] as? [String: String], let user = auth["username"],
                    let password = auth["password"]
                {
                    environment["T_PASSWORD"] = password
                    expectedHeaders["authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
                }
                var arguments = ["call", "t.\(target)", "--specs", specs, "--dry-run", "--json", "--show-secrets"]
                if PostmanImportTests.block(of: target, in: spec).contains("file: { type: file") {
                    arguments += ["--file", "file.txt"]
                }
                let (called, out, callError) = await CommandTests.run(arguments, environment: environment, in: folder)
                XCTAssertEqual(called, 0, "\(name) \(target): \(callError)")
                let printed = try XCTUnwrap(
                    try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(name): \(out)")
                XCTAssertEqual(printed["method"] as? String, request["method"] as? String, name)
                var url = request["url"] as? String ?? ""
                if url.split(separator: "/").count == 2 { url += "/" }
                let query = (request["parameters"] as? [[String: Any]] ?? []).map {
                    "\($0["name"] as? String ?? "")=\($0["value"] as? String ?? "")"
                }
                if !query.isEmpty { url += "?" + query.joined(separator: "&") }
                XCTAssertEqual(printed["url"] as? String, url, name)
                var headers: [String: String] = [:]
                for (key, value) in printed["headers"] as? [String: String] ?? [:] { headers[key.lowercased()] = value }
                for (key, value) in expectedHeaders {
                    XCTAssertEqual(headers[key], value, "\(name): \(key) in \(headers)")
                }
                let body = request["body"] as? [String: Any] ?? [:]
                let sent = printed["body"] as? String ?? ""
                if let text = body["text"] as? String {
                    XCTAssertEqual(sent, text, name)
                } else if let params = body["params"] as? [[String: String]] {
                    if body["mimeType"] as? String == "multipart/form-data" {
                        for param in params {
                            XCTAssertTrue(sent.contains("name=\"\(param["name"] ?? "")\""), "\(name): \(sent)")
                            if let value = param["value"] { XCTAssertTrue(sent.contains("\r\n\r\n\(value)\r\n"), sent) }
                        }
                    } else {
                        let form = params.map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }.joined(separator: "&")
                        XCTAssertEqual(sent, form, name)
                    }
                } else {
                    XCTAssertEqual(sent, "", name)
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 16)
    }

    /// The whole spec, summary and report of a file with what a README holds: a `$TOKEN`, a
    /// `$ID` in the path, a template-looking header, a body with `${` in it, a second host, a
    /// file part, a cookie and a password, a line that is no curl command and a curl with no
    /// URL.
    func testTheWholeSpecSummaryAndReport() async throws {
        let folder = NSTemporaryDirectory() + "curl-golden-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let source = #"""
            # Requests from the README
            curl -H "Authorization: Bearer $TOKEN" https://api.shop.example/v1/orders/$ID?expand=items --compressed -k
            curl -X POST https://api.shop.example/v1/orders \
              -H 'Content-Type: application/json' -H 'X-Request-Id: {abc}' \
              -d '{"sku": "${not-a-var}", "qty": 2}' -m 30 --retry 2
            echo done
            curl -X POST
            curl https://uploads.shop.example/files -F 'doc=@report.pdf' -F "note=from $USER" -b 'session=s1' -u ann:pw -o out.json

            """#
        try source.write(toFile: folder + "/g.sh", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "curl", "g.sh", "--report", "r.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out,
            #"""
            # Imported by moya-cli import curl.
            service: shop
            baseURL: "https://api.shop.example"
            targets:
              getV1Orders:
                summary: "curl GET /v1/orders/{ID}"
                params:
                  ID: { type: string, description: "$ID in the curl command" }
                path: "/v1/orders/{ID}"
                headers: { Accept: "*/*" }
                auth: { bearer: "${TOKEN:-}" }
                task:
                  parameters:
                    - expand: items
                  encoding: queryString
                  arrays: noBrackets
                  bools: literal
              postV1Orders:
                summary: curl POST /v1/orders
                method: POST
                path: /v1/orders
                headers: { Accept: "*/*", X-Request-Id: "{{abc}}" }
                task:
                  data: "{\"sku\": \"$${not-a-var}\", \"qty\": 2}"
                  contentType: application/json
                timeout: 30
                retry: 2
                checks:
                  - name: example
                    live: false
              postFiles:
                summary: curl POST /files
                method: POST
                params:
                  doc: { type: file, description: curl sent the file report.pdf }
                baseURL: "https://uploads.shop.example"
                path: /files
                headers: { Accept: "*/*", Cookie: "${SHOP_COOKIE:-}" }
                auth: { basic: { user: ann, password: "${SHOP_PASSWORD:-}" } }
                task:
                  multipart:
                    - { name: doc, file: "{doc}", mimeType: application/pdf }
                    - { name: note, value: "from ${USER:-}" }

            """#)
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 4 requests → 3 targets in 1 service; 4 things not carried, listed below
            moya-cli: warning: g.sh:2: not carried: -k: pass --insecure to moya-cli call
            moya-cli: warning: g.sh:6: not carried: echo: not a curl command; only curl lines are imported
            moya-cli: warning: g.sh:7: not carried: request: the curl command names no URL, so there is nothing to send
            moya-cli: warning: g.sh:8: not carried: -o: it changes what curl prints, not the request
            moya-cli: warning: set SHOP_COOKIE, SHOP_PASSWORD before calling: the source's credentials are read \
            from the environment, never written into the spec

            """)
        let report = try String(contentsOfFile: folder + "/r.json", encoding: .utf8)
        XCTAssertEqual(
            report,
            #"{"format":"curl","source":"g.sh","requests":4,"targets":3,"services":1,"merged":0,"notCarried":["#
                + #"{"place":"g.sh:2","what":"-k","reason":"pass --insecure to moya-cli call"},"#
                + #"{"place":"g.sh:6","what":"echo","reason":"not a curl command; only curl lines are imported"},"#
                + #"{"place":"g.sh:7","what":"request","reason":"the curl command names no URL, so there is nothing to send"},"#
                + #"{"place":"g.sh:8","what":"-o","reason":"it changes what curl prints, not the request"}],"#
                + #""variables":["SHOP_COOKIE","SHOP_PASSWORD"]}"# + "\n")
        // The password and the cookie are in neither.
        XCTAssertFalse((out + error + report).contains("pw") || (out + error + report).contains("s1"))
    }

    /// One command after `--`, a file on stdin, and the failures: nothing to import (65, the
    /// report still written), no source or two (64), a file that is not there (66).
    func testArgumentsStdinAndFailures() async throws {
        let folder = NSTemporaryDirectory() + "curl-forms-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let (status, out, error) = await CommandTests.run(
            [
                "import", "curl", "--service", "t", "--", "curl", "-X", "POST", "http://127.0.0.1:9/x", "--json",
                #"{"a":1}"#, "-v",
            ])
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(out.contains("    headers: { Accept: application/json }\n"), out)
        XCTAssertTrue(out.contains(#"      data: "{\"a\":1}""# + "\n      contentType: application/json\n"), out)
        XCTAssertEqual(
            error,
            "moya-cli: import: 1 request → 1 target in 1 service; 1 thing not carried, listed below\n"
                + "moya-cli: warning: the command line: not carried: -v: it changes what curl prints, not the request\n"
        )

        let stdin = try Launch.run(
            Launch.product(), ["import", "curl", "-"],
            environment: ["MOYA_CLI_TOOLS": Launch.product("moya-cli-tools").path],
            input: Data("curl http://h/a\n".utf8))
        XCTAssertEqual(stdin.status, 0, stdin.error)
        XCTAssertTrue(stdin.out.hasPrefix("# Imported by moya-cli import curl.\nservice: curl\n"), stdin.out)
        XCTAssertEqual(stdin.error, "moya-cli: import: 1 request → 1 target in 1 service; everything carried\n")

        try "echo hi\ncurl -X POST\n".write(toFile: folder + "/none.sh", atomically: true, encoding: .utf8)
        let none = await CommandTests.run(
            ["import", "curl", "none.sh", "--report", "none.json", "-o", "specs/"], in: folder)
        XCTAssertEqual(none.0, 65, none.2)
        XCTAssertTrue(
            none.2.hasSuffix("moya-cli: error: none.sh: no request could be imported; the lines above say why\n"),
            none.2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/none.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/specs"), "nothing is left of a failed import")

        let neither = await CommandTests.run(["import", "curl"])
        XCTAssertEqual(neither.0, 64)
        XCTAssertEqual(
            neither.2, "moya-cli: error: give a file of curl commands, - for stdin, or one command after --\n")
        let both = await CommandTests.run(["import", "curl", "a.sh", "--", "-X", "GET"])
        XCTAssertEqual(both.0, 64)
        let missing = await CommandTests.run(["import", "curl", "missing.sh"], in: folder)
        XCTAssertEqual(missing.0, 66)
        XCTAssertEqual(missing.2, "moya-cli: error: cannot read missing.sh\n")
    }

    /// An import into a trusted `./specs` keeps it trusted, as `import openapi -o` does: the
    /// spec is moya-cli's, and its `${TOKEN}` is read by the next call. The real programs run,
    /// since the trust list is the one in moya-cli-tools' environment.
    func testAnImportIntoATrustedFolderKeepsItTrusted() async throws {
        let repo = NSTemporaryDirectory() + "curl-trust-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: repo + "/specs", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: repo) }
        try "service: a\nbaseURL: http://a.example\ntargets:\n  root: {}\n".write(
            toFile: repo + "/specs/a.yaml", atomically: true, encoding: .utf8)
        try #"curl -H "Authorization: Bearer $TOKEN" https://h.example/x"#.write(
            toFile: repo + "/h.sh", atomically: true, encoding: .utf8)
        let environment = ["XDG_STATE_HOME": repo + "/state", "TOKEN": "abc"]
        let (trusted, _, trustError) = await CommandTests.run(["trust"], environment: environment, in: repo)
        XCTAssertEqual(trusted, 0, trustError)
        let (imported, _, importError) = try CommandTests.runProcess(
            ["import", "curl", "h.sh", "-o", "specs/"], environment: environment, in: repo)
        XCTAssertEqual(imported, 0, importError)
        let (called, out, callError) = await CommandTests.run(
            ["call", "h.getX", "--dry-run"], environment: environment, in: repo)
        XCTAssertEqual(called, 0, callError)
        XCTAssertTrue(out.hasSuffix("Authorization: Bearer ${TOKEN}\n"), out)
    }

    /// The echo server's account of a request, comparable: the method, the URI, the headers
    /// but `User-Agent`, lowercased and sorted, and the body, a multipart boundary replaced
    /// (and so its length left out). `Accept-Encoding` is left out too: moya-cli asks for
    /// gzip and deflate and decodes the answer, as curl does with `--compressed`, and a PUT,
    /// POST or PATCH without a body says `Content-Length: 0`, as RFC 9110 asks of a client.
    static func request(_ echo: String) throws -> [String] {
        guard let object = try JSONSerialization.jsonObject(with: Data(echo.utf8)) as? [String: Any],
            let method = object["method"] as? String, let uri = object["uri"] as? String,
            let pairs = object["headers"] as? [[String]]
        else { return ["not an echo: \(echo)"] }
        var body = object["body"] as? String ?? ""
        var headers = pairs.filter { $0.count == 2 && !["user-agent", "accept-encoding"].contains($0[0].lowercased()) }
            .map { $0[0].lowercased() + ": " + $0[1] }
        if let type = headers.first(where: { $0.hasPrefix("content-type: multipart/form-data; boundary=") }) {
            let boundary = String(type.dropFirst("content-type: multipart/form-data; boundary=".count))
            body = body.replacing(boundary, with: "BOUNDARY")
            headers = headers.map { $0.replacing(boundary, with: "BOUNDARY") }.filter {
                !$0.hasPrefix("content-length:")
            }
        }
        if body.isEmpty { headers.removeAll { $0 == "content-length: 0" } }
        return [method, uri] + headers.sorted() + [body]
    }
}
