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
        let curl = try Launch.run(Launch.onPath("curl").0, ["curl", "--version"], environment: nil)
        guard curl.status == 0 else { throw XCTSkip("curl is not installed") }
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
