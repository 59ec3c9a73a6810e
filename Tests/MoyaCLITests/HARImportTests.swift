import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import har`, held to what the archive recorded: each imported target, called
/// against the echo server the archive's URLs name, sends the recorded request (method, path
/// and query, headers but those the transport writes, body), its credentials given as the
/// variables the import names. Entries of one method and path template are one target, the
/// other statuses its named samples.
final class HARImportTests: XCTestCase {
    func testEachTargetSendsWhatTheArchiveRecorded() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = server.baseURL
        func header(_ name: String, _ value: String) -> [String: String] { ["name": name, "value": value] }
        func entry(
            _ method: String, _ path: String, headers: [[String: String]], query: [[String: String]] = [],
            post: [String: Any]? = nil, status: Int = 200, body: String = #"{"ok":true}"#
        ) -> [String: Any] {
            var request: [String: Any] = [
                "method": method, "url": base + path, "httpVersion": "HTTP/1.1",
                "headers": [header("Host", "127.0.0.1:\(server.port)")] + headers, "queryString": query, "cookies": [],
            ]
            if let post { request["postData"] = post }
            return [
                "request": request,
                "response": [
                    "status": status, "statusText": "", "headers": [],
                    "content": ["mimeType": "application/json", "text": body, "size": body.utf8.count],
                ],
            ]
        }
        let entries: [[String: Any]] = [
            entry(
                "GET", "/users/42?expand=orders&page=2",
                headers: [
                    header("Accept", "application/json"), header("X-Trace", "t-1"), header("Cookie", "sid=s3cret"),
                    header("Authorization", "Bearer tok-123"), header("Accept-Encoding", "gzip, br"),
                ],
                query: [["name": "expand", "value": "orders"], ["name": "page", "value": "2"]]),
            entry(
                "GET", "/users/43?expand=orders&page=2", headers: [header("Accept", "application/json")],
                query: [["name": "expand", "value": "orders"], ["name": "page", "value": "2"]], status: 404,
                body: #"{"error":"no such user"}"#),
            entry(
                "POST", "/orders",
                headers: [header("Content-Type", "application/json"), header("Content-Length", "26")],
                post: ["mimeType": "application/json", "text": #"{"sku":"A-1","qty":2,"x":{}}"#], status: 201),
            entry(
                "POST", "/login", headers: [header("Content-Type", "application/x-www-form-urlencoded")],
                post: [
                    "mimeType": "application/x-www-form-urlencoded", "text": "user=ann&password=hunter2",
                    "params": [["name": "user", "value": "ann"], ["name": "password", "value": "hunter2"]],
                ]),
            entry(
                "POST", "/sessions", headers: [header("Content-Type", "application/json")],
                post: [
                    "mimeType": "application/json",
                    "text": #"{"user":"ann","auth":{"password":"hunter2"},"keep":true}"#,
                ]),
            entry(
                "PUT", "/files/0123456789abcdef0123",
                headers: [header("X-Api-Key", "k-9"), header("Content-Type", "text/plain")],
                post: ["mimeType": "text/plain", "text": "hello\n"]),
        ]
        let archive: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "test"], "entries": entries]]
        let folder = NSTemporaryDirectory() + "har-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try JSONSerialization.data(withJSONObject: archive, options: [.sortedKeys]).write(
            to: URL(fileURLWithPath: folder + "/session.har"))

        let (status, _, error) = await CommandTests.run(
            ["import", "har", "session.har", "--service", "h", "-o", "specs/", "--report", "report.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 6 requests → 5 targets in 1 service (1 joined the target of the same method and path); 1 thing not carried, listed below
            moya-cli: warning: session.har: entry 1: not carried: header Accept-Encoding: moya-cli asks for gzip and \
            deflate itself and decodes the answer
            moya-cli: warning: set H_COOKIE, H_TOKEN, H_PASSWORD, H_X_API_KEY before calling: the source's credentials \
            are read from the environment, never written into the spec

            """)
        let spec = try String(contentsOfFile: folder + "/specs/h.yaml", encoding: .utf8)
        for secret in ["s3cret", "tok-123", "hunter2", "k-9"] { XCTAssertFalse(spec.contains(secret), spec) }
        XCTAssertTrue(spec.contains("    path: \"/users/{userId}\"\n"), spec)
        XCTAssertTrue(spec.contains("      status404: { status: 404, json: { error: no such user } }\n"), spec)
        let (valid, _, validError) = await CommandTests.run(["validate", "specs"], in: folder)
        XCTAssertEqual(valid, 0, validError)

        let environment = [
            "H_COOKIE": "sid=s3cret", "H_TOKEN": "tok-123", "H_PASSWORD": "hunter2", "H_X_API_KEY": "k-9",
        ]
        let targets = ["getUsers42", "postOrders", "postLogin", "postSessions", "putFiles0123456789abcdef0123"]
        for (target, recorded) in zip(targets, [entries[0], entries[2], entries[3], entries[4], entries[5]]) {
            let (called, echoed, callError) = await CommandTests.run(
                ["call", "h.\(target)", "--specs", "specs"], environment: environment, in: folder)
            XCTAssertEqual(called, 0, "\(target): \(callError)")
            var sent = try Self.echoed(echoed)
            // moya-cli's own Accept, where the archive recorded none.
            if !Self.recorded(recorded).contains(where: { $0.hasPrefix("accept: ") }) {
                sent.removeAll { $0 == "accept: */*" }
            }
            // A form with a credential field is sent as moya-cli's form: its fields in name
            // order, with a charset.
            if target == "postLogin" {
                XCTAssertEqual(sent.last.map { Set($0.split(separator: "&")) }, ["user=ann", "password=hunter2"])
                XCTAssertTrue(
                    sent.contains("content-type: application/x-www-form-urlencoded; charset=utf-8"), "\(sent)")
                continue
            }
            XCTAssertEqual(sent, Self.recorded(recorded), target)
        }
        // The other status is a sample of the same target.
        let (stubbed, body, _) = await CommandTests.run(
            ["call", "h.getUsers42", "--specs", "specs", "--stub", "immediate", "--sample", "status404"], in: folder)
        XCTAssertEqual(stubbed, 4)
        XCTAssertEqual(body, #"{"error":"no such user"}"#)
    }

    /// Headers the comparison leaves out: what the transport writes, and what moya-cli adds
    /// of its own (its `User-Agent`, its `Accept-Encoding`; its default `Accept: */*` is
    /// left out where the archive recorded no `Accept`).
    static let transport: Set<String> = ["host", "content-length", "user-agent", "accept-encoding", "connection"]

    static func recorded(_ entry: [String: Any]) -> [String] {
        let request = entry["request"] as? [String: Any] ?? [:]
        let url = request["url"] as? String ?? ""
        let uri = String(
            url[
                (url.range(of: "//").map { url[$0.upperBound...].firstIndex(of: "/") ?? url.endIndex } ?? url.startIndex)...
            ])
        let headers = (request["headers"] as? [[String: String]] ?? []).compactMap { header -> String? in
            guard let name = header["name"]?.lowercased(), !transport.contains(name) else { return nil }
            return name + ": " + (header["value"] ?? "")
        }
        let body = (request["postData"] as? [String: Any])?["text"] as? String ?? ""
        return [request["method"] as? String ?? "", uri] + headers.sorted() + [body]
    }

    static func echoed(_ echo: String) throws -> [String] {
        guard let object = try JSONSerialization.jsonObject(with: Data(echo.utf8)) as? [String: Any],
            let pairs = object["headers"] as? [[String]]
        else { return ["not an echo: \(echo)"] }
        let headers = pairs.filter { $0.count == 2 && !transport.contains($0[0].lowercased()) }
            .map { $0[0].lowercased() + ": " + $0[1] }
        return [object["method"] as? String ?? "", object["uri"] as? String ?? ""] + headers.sorted()
            + [object["body"] as? String ?? ""]
    }
}
