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

    /// The lines of `target` in `spec`.
    static func block(of target: String, in spec: String) -> String {
        guard let start = spec.range(of: "\n  \(target):\n") else { return "" }
        let rest = spec[start.upperBound...]
        let end = rest.firstMatch(of: /\n  [^ ]/)?.range.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
