import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import postman`, held to Insomnia's expected imports of the same collections:
/// each target, printed by `call --dry-run --json --show-secrets` with its credentials given as
/// the variables the import names, sends the method, URL, query, headers, body and credentials
/// of Insomnia's output. Where the two differ on purpose, it is named here: Postman sends no
/// body with a GET (its body pruning), which Insomnia keeps; an auth scheme moya-cli does not
/// have (digest, OAuth 1 and 2, AWS) is reported rather than carried.
final class PostmanImportTests: XCTestCase {
    func testInsomniasPostmanFixturesSendWhatTheyExpect() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let inputs = shared + "/insomnia-fixtures/postman"
        let outputs = shared + "/insomnia-fixtures/outputs-2024-03/postman"
        let folder = NSTemporaryDirectory() + "postman-fixtures-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try "a file\n".write(toFile: folder + "/file.txt", atomically: true, encoding: .utf8)
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: inputs).sorted()
        where name.hasSuffix("-input.json") {
            let stem = String(name.dropLast("-input.json".count))
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: outputs + "/\(stem)-output.json")) else {
                continue
            }
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let requests = (object["resources"] as? [[String: Any]] ?? [])
                .filter { $0["_type"] as? String == "request" && ($0["url"] as? String ?? "") != "" }
            let specs = folder + "/\(stem)"
            let (status, _, error) = await CommandTests.run(
                ["import", "postman", inputs + "/" + name, "--service", "p", "-o", specs + "/"], in: folder)
            // Insomnia reads no URL from a URL object without `raw`; moya-cli puts it together.
            if stem == "complex-v2_0_fromHeaders" {
                XCTAssertEqual(status, 0, error)
                let spec = try String(contentsOfFile: specs + "/p.yaml", encoding: .utf8)
                XCTAssertTrue(spec.contains("baseURL: \"https://web.timingapp.com\"\n"), spec)
                XCTAssertTrue(spec.contains("    path: \"/api/v1/projects/{project}\"\n"), spec)
                continue
            }
            XCTAssertEqual(status, requests.isEmpty ? 65 : 0, "\(name): \(error)")
            guard !requests.isEmpty else { continue }
            let spec = try String(contentsOfFile: specs + "/p.yaml", encoding: .utf8)
            let (valid, _, validError) = await CommandTests.run(["validate", specs])
            XCTAssertEqual(valid, 0, validError)
            let targets = spec.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else { return nil }
                return String(line.dropFirst(2).dropLast())
            }
            XCTAssertEqual(targets.count, requests.count, "\(name):\n\(spec)")
            for (request, target) in zip(requests, targets) {
                let method = request["method"] as? String ?? ""
                var environment = ["BASE_URL": "http://base.test"]
                var expectedHeaders: [String: String] = [:]
                for header in request["headers"] as? [[String: Any]] ?? [] where header["disabled"] as? Bool != true {
                    guard let key = header["name"] as? String, let value = header["value"] as? String else { continue }
                    expectedHeaders[key.lowercased()] = value
                }
                var url = (request["url"] as? String ?? "").replacing("{{base_url}}", with: "http://base.test")
                if !url.contains("://") { url = "http://" + url }
                if url.split(separator: "/").count == 2 { url += "/" }
                var query = (request["parameters"] as? [[String: Any]] ?? []).filter { $0["disabled"] as? Bool != true }
                    .map { "\($0["name"] as? String ?? "")=\($0["value"] as? String ?? "")" }
                let auth = request["authentication"] as? [String: Any] ?? [:]
                switch auth["type"] as? String {
                case "basic":
                    let user = auth["username"] as? String ?? "", password = auth["password"] as? String ?? ""
                    environment["PASSWORD"] = password
                    expectedHeaders["authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
                case "bearer":
                    environment["TOKEN"] = auth["token"] as? String
                    expectedHeaders["authorization"] = "Bearer " + (auth["token"] as? String ?? "")
                case "apikey":
                    let key = auth["key"] as? String ?? "", value = auth["value"] as? String ?? ""
                    environment[key.uppercased()] = value
                    if auth["addTo"] as? String == "queryParams" {
                        query.append("\(key)=\(value)")
                    } else {
                        expectedHeaders[key.lowercased()] = value
                    }
                case nil:
                    break
                default:
                    // Not carried: reported, and no Authorization is written.
                    XCTAssertFalse(spec.contains("auth: {"), "\(name): \(spec)")
                }
                if let authorization = expectedHeaders["authorization"], !authorization.hasPrefix("Basic ") {
                    environment["AUTHORIZATION"] = authorization
                }
                if !query.isEmpty { url += "?" + query.joined(separator: "&") }
                // A `{{name}}` the expected body keeps is sent as that text when the variable
                // the import reads for it holds it.
                let bodyText = (request["body"] as? [String: Any])?["text"] as? String ?? ""
                for match in bodyText.matches(of: /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/) {
                    let name = String(match.1)
                    let variable = name.replacing(/([a-z0-9])([A-Z])/) { "\($0.1)_\($0.2)" }.uppercased()
                    environment[variable] = "{{\(name)}}"
                }
                var arguments = ["call", "p.\(target)", "--specs", specs, "--dry-run", "--json", "--show-secrets"]
                if Self.block(of: target, in: spec).contains("file: { type: file") {
                    arguments += ["--file", "file.txt"]
                }
                let (called, out, callError) = await CommandTests.run(arguments, environment: environment, in: folder)
                XCTAssertEqual(called, 0, "\(name) \(target): \(callError)")
                let printed = try XCTUnwrap(
                    try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(name): \(out)")
                XCTAssertEqual(printed["method"] as? String, method, name)
                XCTAssertEqual(printed["url"] as? String, url, name)
                var headers: [String: String] = [:]
                for (key, value) in printed["headers"] as? [String: String] ?? [:] { headers[key.lowercased()] = value }
                for (key, value) in expectedHeaders where !(key == "content-type" && method == "GET") {
                    XCTAssertEqual(headers[key], value, "\(name) \(target): \(key) in \(headers)")
                }
                let body = request["body"] as? [String: Any] ?? [:]
                let sent = printed["body"] as? String ?? ""
                if method == "GET" {
                    XCTAssertEqual(sent, "", "\(name): Postman prunes a GET's body")
                } else if let text = body["text"] as? String {
                    if body["mimeType"] as? String == "application/graphql" {
                        // GraphQL over HTTP sends the variables as an object; Insomnia keeps
                        // Postman's text of them.
                        var expected = try XCTUnwrap(
                            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                        if let variables = expected["variables"] as? String {
                            expected["variables"] = try JSONSerialization.jsonObject(with: Data(variables.utf8))
                        }
                        XCTAssertEqual(
                            try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? NSDictionary,
                            expected as NSDictionary, name)
                    } else {
                        XCTAssertEqual(sent, text, name)
                    }
                } else if let params = body["params"] as? [[String: Any]] {
                    let enabled = params.filter { $0["disabled"] as? Bool != true }
                    if body["mimeType"] as? String == "multipart/form-data" {
                        for param in enabled {
                            XCTAssertTrue(
                                sent.contains("name=\"\(param["name"] as? String ?? "")\""), "\(name): \(sent)")
                        }
                    } else {
                        let form = enabled.map { "\($0["name"] as? String ?? "")=\($0["value"] as? String ?? "")" }
                        XCTAssertEqual(sent, form.joined(separator: "&"), name)
                    }
                } else {
                    XCTAssertEqual(sent, "", name)
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 42)
    }

    /// A collection with what users keep in one: variables (one secret), an API key on the
    /// collection, folders, a disabled header and query param, saved examples, a raw JSON body,
    /// a form login that turns auth off, a digest request on another host, scripts, and a
    /// staging environment. The whole spec, the warnings and what a call sends.
    func testTheWholeSpecOfACollectionWithAnEnvironment() async throws {
        let folder = NSTemporaryDirectory() + "postman-golden-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try #"""
        {
          "info": { "name": "Shop API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
          "variable": [
            { "key": "baseUrl", "value": "https://api.shop.example/v1" },
            { "key": "apiKey", "value": "k-live-123", "type": "secret" },
            { "key": "userId", "value": "42" }
          ],
          "auth": { "type": "apikey", "apikey": [ { "key": "key", "value": "X-Api-Key" }, { "key": "value", "value": "{{apiKey}}" }, { "key": "in", "value": "header" } ] },
          "event": [ { "listen": "prerequest", "script": { "exec": ["pm.environment.set('t', Date.now())"] } } ],
          "item": [
            {
              "name": "Users",
              "item": [
                {
                  "name": "Get user",
                  "request": {
                    "method": "GET",
                    "header": [ { "key": "Accept", "value": "application/json" }, { "key": "X-Debug", "value": "1", "disabled": true } ],
                    "url": { "raw": "{{baseUrl}}/users/{{userId}}?fields=name,email&draft=1", "host": ["{{baseUrl}}"], "path": ["users", "{{userId}}"],
                             "query": [ { "key": "fields", "value": "name,email" }, { "key": "draft", "value": "1", "disabled": true } ] }
                  },
                  "response": [
                    { "name": "Found", "code": 200, "header": [ { "key": "Content-Type", "value": "application/json" } ], "body": "{\"id\": 42, \"name\": \"Ann\"}" },
                    { "name": "Not found", "code": 404, "header": [ { "key": "Content-Type", "value": "text/plain" } ], "body": "no such user" }
                  ]
                },
                {
                  "name": "Create user",
                  "request": {
                    "method": "POST",
                    "header": [ { "key": "Content-Type", "value": "application/json" } ],
                    "body": { "mode": "raw", "raw": "{\"name\": \"{{name}}\", \"role\": \"admin\"}", "options": { "raw": { "language": "json" } } },
                    "url": "{{baseUrl}}/users"
                  }
                }
              ]
            },
            {
              "name": "Login",
              "request": {
                "auth": { "type": "noauth" },
                "method": "POST",
                "body": { "mode": "urlencoded", "urlencoded": [ { "key": "user", "value": "ann" }, { "key": "password", "value": "hunter2" } ] },
                "url": "{{baseUrl}}/login"
              },
              "event": [ { "listen": "test", "script": { "exec": ["pm.test('ok', () => pm.response.to.have.status(200))"] } } ]
            },
            {
              "name": "Status page",
              "request": { "auth": { "type": "digest", "digest": [] }, "method": "GET", "url": "https://status.shop.example/health" }
            }
          ]
        }

        """#.write(toFile: folder + "/shop.postman_collection.json", atomically: true, encoding: .utf8)
        try #"""
        { "name": "Staging", "values": [ { "key": "baseUrl", "value": "https://staging.shop.example/v1", "enabled": true }, { "key": "apiKey", "value": "k-test-9", "type": "secret", "enabled": true }, { "key": "userId", "value": "7", "enabled": true } ] }

        """#.write(toFile: folder + "/staging.postman_environment.json", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(
            ["import", "postman", "shop.postman_collection.json", "--environment", "staging.postman_environment.json"],
            in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out,
            #"""
            # Imported by moya-cli import postman from Shop API.
            service: shop
            baseURL: "${BASE_URL:-https://api.shop.example/v1}"
            environments:
              staging: { baseURL: "https://staging.shop.example/v1" }
            targets:
              usersGetUser:
                summary: Get user
                params:
                  userId: { type: string, default: "42", description: "{{userId}} in the collection" }
                path: "/users/{userId}"
                headers: { Accept: application/json, X-Api-Key: "${API_KEY:-}" }
                task:
                  parameters:
                    - fields: "name,email"
                  encoding: queryString
                  arrays: noBrackets
                  bools: literal
                samples:
                  found: { json: { id: 42, name: Ann } }
                  notFound: { status: 404, headers: { Content-Type: text/plain }, body: no such user }
              usersCreateUser:
                summary: Create user
                method: POST
                path: /users
                headers: { X-Api-Key: "${API_KEY:-}" }
                task:
                  data: "{\"name\": \"${NAME}\", \"role\": \"admin\"}"
                  contentType: application/json
                checks:
                  - name: example
                    live: false
              login:
                summary: Login
                method: POST
                path: /login
                auth: none
                task:
                  parameters: { user: ann, password: "${PASSWORD:-}" }
                  encoding: httpBody
                  arrays: noBrackets
                  bools: literal
                checks:
                  - name: example
                    live: false
              statusPage:
                summary: Status page
                baseURL: "https://status.shop.example"
                path: /health
                auth: none

            """#)
        XCTAssertEqual(
            error,
            #"""
            moya-cli: import: 4 requests → 4 targets in 1 service; 7 things not carried, listed below
            moya-cli: warning: shop.postman_collection.json: not carried: scripts: the collection's scripts are never run
            moya-cli: warning: shop.postman_collection.json: Users / Get user: not carried: query draft: a disabled query param is left out
            moya-cli: warning: shop.postman_collection.json: Users / Get user: not carried: header X-Debug: a disabled header is left out
            moya-cli: warning: shop.postman_collection.json: Login: not carried: scripts: the request's scripts are never run; what they set or test is not carried
            moya-cli: warning: shop.postman_collection.json: Status page / auth: not carried: auth digest: moya-cli's auth is bearer, basic or an API key; this scheme is not carried, and no other auth is sent in its place
            moya-cli: warning: staging.postman_environment.json: not carried: apiKey: a secret is never written; set API_KEY before calling
            moya-cli: warning: staging.postman_environment.json: not carried: userId: it is the param userId; pass --userId 7 with --env staging
            moya-cli: warning: set API_KEY, PASSWORD before calling: the source's credentials are read from the environment, never written into the spec

            """#)
        // Neither the secret nor the password is written or printed.
        XCTAssertFalse(
            (out + error).contains("k-live-123") || (out + error).contains("k-test-9")
                || (out + error).contains("hunter2"))

        try out.write(toFile: folder + "/shop.yaml", atomically: true, encoding: .utf8)
        let (called, sent, callError) = await CommandTests.run(
            [
                "call", "shop.usersGetUser", "--specs", "shop.yaml", "--env", "staging", "--userId", "7", "--dry-run",
                "--show-secrets",
            ],
            environment: ["API_KEY": "k-test-9"], in: folder)
        XCTAssertEqual(called, 0, callError)
        XCTAssertEqual(
            sent,
            "GET https://staging.shop.example/v1/users/7?fields=name%2Cemail\nUser-Agent: moya-cli/0.1.0\n"
                + "Accept: application/json\nX-Api-Key: k-test-9\n")
        let (stubbed, body, _) = await CommandTests.run(
            ["call", "shop.usersGetUser", "--specs", "shop.yaml", "--stub", "immediate", "--sample", "notFound"],
            in: folder)
        XCTAssertEqual(stubbed, 4)
        XCTAssertEqual(body, "no such user")
    }

    /// A v1 collection, a file that is not JSON and one that is not there fail as documented.
    /// A request of a registered method other than HTTP's own (WebDAV's `COPY`, as in the
    /// transformer's hackernews example) is a target, and the call sends that method.
    func testARegisteredMethodIsATargetAndIsSent() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "postman-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try #"""
        {"info": {"name": "Dav", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [{"name": "copy item", "request": {"method": "COPY", "url": "{{base}}/files/a.txt",
                   "header": [{"key": "Destination", "value": "/files/b.txt"}]}}]}

        """#.write(toFile: folder + "/dav.json", atomically: true, encoding: .utf8)
        let (status, _, error) = await CommandTests.run(["import", "postman", "dav.json", "-o", "specs/"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(
            error.hasPrefix("moya-cli: import: 1 request → 1 target in 1 service; everything carried\n"), error)
        let spec = try String(contentsOfFile: folder + "/specs/dav.yaml", encoding: .utf8)
        XCTAssertTrue(spec.contains("    method: COPY\n"), spec)
        let (called, echoed, callError) = await CommandTests.run(
            ["call", "dav.copyItem", "--specs", "specs"], environment: ["BASE": server.baseURL], in: folder)
        XCTAssertEqual(called, 0, callError)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(echoed.utf8)) as? [String: Any])
        XCTAssertEqual(json["method"] as? String, "COPY")
        XCTAssertEqual(json["uri"] as? String, "/files/a.txt")
    }

    func testFailures() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let v1 = await CommandTests.run(["import", "postman", shared + "/postman-transformer/v1.0.0/echo.json"])
        XCTAssertEqual(v1.0, 65)
        XCTAssertTrue(
            v1.2.hasSuffix(
                "echo.json is a Postman collection v1, which moya-cli does not read; export it again from Postman as Collection v2.1\n"
            ), v1.2)
        let notJSON = await CommandTests.run(["import", "postman", CommandTests.root + "/specs/httpbin.yaml"])
        XCTAssertEqual(notJSON.0, 65)
        XCTAssertTrue(
            notJSON.2.hasPrefix("moya-cli: error: \(CommandTests.root)/specs/httpbin.yaml is not JSON"), notJSON.2)
        let missing = await CommandTests.run(["import", "postman", "/nonexistent/c.json"])
        XCTAssertEqual(missing.0, 66)
        XCTAssertEqual(missing.2, "moya-cli: error: cannot read /nonexistent/c.json\n")
    }

    /// The lines of `target` in `spec`.
    static func block(of target: String, in spec: String) -> String {
        guard let start = spec.range(of: "\n  \(target):\n") else { return "" }
        let rest = spec[start.upperBound...]
        let end = rest.firstMatch(of: /\n  [^ ]/)?.range.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
