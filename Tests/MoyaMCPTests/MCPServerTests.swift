import Foundation
import MoyaCore
import TestSupport
import XCTest

/// `moya-cli mcp` driven as an agent's client drives it: the built executable on stdio, the
/// Swift SDK's client, the in-process test server behind it.
final class MCPServerTests: XCTestCase {
    var server: TestServer!
    let key = "k3y/+=secret"

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server.stop()
    }

    var environment: [String: String] { ["TEST_SERVER": server.baseURL, "SHOP_KEY": key, "API_PASSWORD": "pw"] }

    func session(_ flags: [String] = [], spec: String = "shop.yaml") async throws -> MCPSession {
        try await MCPSession(["--specs", MCPSession.fixtures + "/" + spec] + flags, environment: environment)
    }

    func testListsReadOnlyTargetsAndFlowsWithSchemasAndAnnotations() async throws {
        let mcp = try await session()
        let tools = try await mcp.allTools()
        let long = "shop.aTargetWhoseNameIsMuchLongerThanAnyMCPClientAcceptsForTheNamesOfItsTools"
        let shortened = try XCTUnwrap(tools.first { $0.name.hasPrefix("shop.aTarget") })
        XCTAssertEqual(
            tools.map(\.name),
            ["shop.user", "shop.echo", "shop.bytes", "shop.big", "shop.missing", shortened.name, "shop.lookup"])
        XCTAssertTrue(shortened.name.hasPrefix(String(long.prefix(54)) + "-"), shortened.name)
        XCTAssertLessThan(shortened.name.count, 64)
        XCTAssertTrue(shortened.description?.contains("(\(long))") == true, shortened.description ?? "")

        let user = try XCTUnwrap(tools.first { $0.name == "shop.user" })
        XCTAssertEqual(user.title, "One user, with friends")
        XCTAssertEqual(
            user.description,
            "One user, with friends\n\nThe test server's fixed JSON document.\n\n"
                + "GET /json on the shop service. Answers 200 with JSON that the output schema describes.")
        // No secret param, no ${VAR} default: the model can neither see nor set them.
        XCTAssertEqual(
            MCPSession.json(user.inputSchema),
            #"{"additionalProperties":false,"properties":{"fields":{"items":{"type":"string"},"type":"array"},"#
                + #""id":{"description":"The user's id","type":"integer"},"#
                + #""moya.select":{"description":"An RFC 9535 JSONPath, such as $.items[*].name: only the values it "#
                + #"selects of a JSON body come back, as a JSON array. Use it to keep results small.","type":"string"},"#
                + #""order":{"default":"ascending","enum":["ascending","descending"],"type":"string"}},"#
                + #""required":["id"],"type":"object"}"#)
        XCTAssertEqual(
            user.outputSchema.map(MCPSession.json),
            #"{"properties":{"first_name":{"type":"string"},"id":{"type":"integer"}},"required":["id"],"type":"object"}"#
        )
        XCTAssertEqual(user.annotations.readOnlyHint, true)
        XCTAssertEqual(user.annotations.openWorldHint, true)
        XCTAssertEqual(user.annotations.title, "One user, with friends")
        XCTAssertNil(user.annotations.destructiveHint)

        let listed = tools.map { MCPSession.json(try! Value($0)) }.joined()
        XCTAssertFalse(listed.contains("t0p-s3cret"))
        XCTAssertFalse(listed.contains("SHOP_REGION"))
        XCTAssertFalse(listed.contains(key))
        XCTAssertFalse(listed.contains("shop.internal"))
        let status = await mcp.close()
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            mcp.stderr,
            "moya-cli: mcp: 7 of 13 targets and flows as tools on stdio (6 left out; -h says which flags add them)\n")
    }

    func testWritesAndDeletesAreSeparateOptIns() async throws {
        let writes = try await session(["--allow-writes"])
        let writeNames = try await writes.allTools().map(\.name)
        XCTAssertTrue(writeNames.contains("shop.createPerson"))
        XCTAssertTrue(writeNames.contains("shop.replacePerson"))
        XCTAssertFalse(writeNames.contains("shop.removePerson"))
        XCTAssertFalse(writeNames.contains("shop.cleanup"))
        let removed = try await writes.call("shop.removePerson", ["id": 1])
        XCTAssertEqual(removed.isError, true)
        XCTAssertEqual(
            MCPSession.text(removed),
            "moya-cli: shop.removePerson sends DELETE; start moya-cli mcp with --allow-deletes to expose it")
        let created = try await writes.call("shop.createPerson", ["name": "Ann"])
        XCTAssertNil(created.isError)
        XCTAssertTrue(MCPSession.text(created).hasPrefix("Status: 201\n"), MCPSession.text(created))
        await writes.close()

        let all = try await session(["--allow-writes", "--allow-deletes"])
        let tools = try await all.allTools()
        let remove = try XCTUnwrap(tools.first { $0.name == "shop.removePerson" })
        XCTAssertEqual(remove.annotations.readOnlyHint, false)
        XCTAssertEqual(remove.annotations.destructiveHint, true)
        XCTAssertEqual(remove.annotations.idempotentHint, true)
        let replace = try XCTUnwrap(tools.first { $0.name == "shop.replacePerson" })
        XCTAssertEqual(replace.annotations.destructiveHint, false)
        XCTAssertEqual(replace.annotations.idempotentHint, true)
        let create = try XCTUnwrap(tools.first { $0.name == "shop.createPerson" })
        XCTAssertEqual(create.annotations.idempotentHint, false)
        XCTAssertTrue(tools.contains { $0.name == "shop.cleanup" })
        // `mcp: false` is kept out whatever the flags.
        XCTAssertFalse(tools.contains { $0.name == "shop.internal" })
        let keptOut = try await all.call("shop.internal")
        XCTAssertEqual(
            MCPSession.text(keptOut), "moya-cli: shop.internal has mcp: false in its spec, which no flag overrides")
        await all.close()
        XCTAssertFalse(server.waitForRequests(to: "/echo/internal", timeout: 0.3), "a kept-out target was sent")
    }

    func testOnlyIsAnAllowList() async throws {
        let mcp = try await session(["--only", "shop.u*"])
        let names = try await mcp.allTools().map(\.name)
        XCTAssertEqual(names, ["shop.user"])
        let refused = try await mcp.call("shop.echo")
        XCTAssertEqual(
            MCPSession.text(refused), "moya-cli: shop.echo is not in --only; add --only 'shop.echo' to expose it")
        await mcp.close()
    }

    func testCallsLiveWithTheSpecsSecretsNeverInTheResult() async throws {
        let mcp = try await session()
        let user = try await mcp.call("shop.user", ["id": 1, "order": "descending"])
        XCTAssertNil(user.isError)
        XCTAssertEqual(
            MCPSession.text(user),
            """
            Status: 200
            Content-Type: application/json

            {
              "id" : 1,
              "first_name" : "Harry",
              "last_name" : "Potter",
              "score" : 9.5,
              "admin" : false,
              "tags" : [],
              "friends" : [
                {
                  "id" : 2,
                  "name" : "Ron"
                },
                {
                  "id" : 3,
                  "name" : "Hermione"
                }
              ],
              "a.b" : "dotted",
              "house" : null
            }
            """)
        XCTAssertEqual(user.structuredContent.map { MCPSession.json($0)["first_name"] }, "Harry")

        // The server echoes the secret header, the secret param's value is sent, and neither
        // comes back in any form.
        let echo = try await mcp.call("shop.echo")
        let text = MCPSession.text(echo)
        XCTAssertTrue(text.contains(#""X-Api-Key" : "••••""#) || text.contains("••••"), text)
        for form in SecretForms.all(key) { XCTAssertFalse(text.contains(form), "\(form) in \(text)") }
        let status = await mcp.close()
        XCTAssertEqual(status, 0)
    }

    func testArgumentsThatBreakTheSchemaSendNothing() async throws {
        let mcp = try await session()
        let result = try await mcp.call("shop.user", ["id": "one", "colour": "red", "fields": 3])
        XCTAssertEqual(result.isError, true)
        XCTAssertEqual(
            MCPSession.text(result),
            """
            $.fields: expected array, got integer
            $.id: expected integer, got string
            $.colour: unexpected property
            """)
        await mcp.close()
        XCTAssertFalse(server.waitForRequests(to: "/json", timeout: 0.3), "an invalid call was sent")
    }

    func testSelectsWithAJSONPathAndCutsLargeResults() async throws {
        let mcp = try await session(["--max-result-bytes", "1024"])
        let names = try await mcp.call("shop.user", ["id": 1, "moya.select": "$.friends[*].name"])
        XCTAssertEqual(
            MCPSession.text(names),
            "Status: 200\nContent-Type: application/json\n\n[\n  \"Ron\",\n  \"Hermione\"\n]")
        XCTAssertNil(names.structuredContent)

        let big = try await mcp.call("shop.big", ["count": 5000])
        let text = MCPSession.text(big)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(
            lines.last,
            "[moya-cli: 3989 of 5013 bytes left out at --max-result-bytes 1024; select less with moya.select, such as $.items[0:10]]"
        )
        XCTAssertEqual(text.utf8.count - (lines.last?.utf8.count ?? 0) - 1, 1024)

        let binary = try await mcp.call("shop.bytes", ["count": 300])
        XCTAssertEqual(MCPSession.text(binary), "Status: 200\n\n(300 bytes of binary data, not shown)")

        let missing = try await mcp.call("shop.missing")
        XCTAssertEqual(missing.isError, true)
        XCTAssertTrue(
            MCPSession.text(missing).hasPrefix("moya-cli: shop.missing: status 404"), MCPSession.text(missing))
        await mcp.close()
    }

    func testStubbedToolsAnswerFromSamplesAndAreNotOpenWorld() async throws {
        let mcp = try await MCPSession(
            ["--specs", MCPSession.fixtures + "/shop.yaml", "--stub", "immediate"],
            environment: ["TEST_SERVER": "http://127.0.0.1:9", "SHOP_KEY": key])
        let tools = try await mcp.allTools()
        XCTAssertTrue(tools.allSatisfy { $0.annotations.openWorldHint == false })
        let user = try await mcp.call("shop.user", ["id": 1])
        XCTAssertEqual(
            MCPSession.text(user),
            "Status: 200\nContent-Type: application/json\n\n{\n  \"id\" : 1,\n  \"first_name\" : \"Harry\"\n}")
        XCTAssertEqual(user.structuredContent.map(MCPSession.json), #"{"first_name":"Harry","id":1}"#)
        await mcp.close()
    }

    func testAFlowRunsAsOneTool() async throws {
        let mcp = try await session()
        let result = try await mcp.call("shop.lookup", ["id": 1])
        XCTAssertNil(result.isError)
        let lines = MCPSession.text(result).split(separator: "\n").map { line in
            // Durations vary; the rest is compared whole.
            line.replacing(/\(\d+ ms\)/, with: "(N ms)")
        }
        XCTAssertEqual(
            lines.joined(separator: "\n"),
            "shop.lookup: PASS\n  PASS  user  200  (N ms)\n  PASS  echo  200  (N ms)\ncaptures:\n  name: \"Harry\"")
        await mcp.close()
    }

    func testALoginsTokenNeverReachesTheModel() async throws {
        let mcp = try await session(spec: "login.yaml")
        let names = try await mcp.allTools().map(\.name)
        XCTAssertEqual(names, ["vault.protected"])
        let result = try await mcp.call("vault.protected", ["n": 1])
        XCTAssertNil(result.isError, MCPSession.text(result))
        let text = MCPSession.text(result)
        XCTAssertTrue(text.contains(#""token" : "••••""#), text)
        for form in SecretForms.all("t1") where form.count > 2 { XCTAssertFalse(text.contains(form), text) }
        await mcp.close()
        XCTAssertEqual(server.requests(for: "logins"), 1)
    }

    func testDynamicModeSearchesDescribesAndCalls() async throws {
        let mcp = try await session(["--tools", "dynamic"])
        let tools = try await mcp.allTools()
        XCTAssertEqual(tools.map(\.name), ["search_targets", "describe_target", "call_target"])
        let found = try await mcp.call("search_targets", ["query": "user"])
        XCTAssertEqual(MCPSession.text(found), "shop.user: One user, with friends\nshop.lookup: Reads a user twice")
        let described = try await mcp.call("describe_target", ["name": "shop.user"])
        XCTAssertTrue(MCPSession.text(described).contains(#""inputSchema""#))
        let called = try await mcp.call(
            "call_target", ["name": "shop.user", "arguments": ["id": 1, "moya.select": "$.id"]])
        XCTAssertEqual(MCPSession.text(called), "Status: 200\nContent-Type: application/json\n\n[\n  1\n]")
        let refused = try await mcp.call("call_target", ["name": "shop.createPerson", "arguments": ["name": "x"]])
        XCTAssertEqual(refused.isError, true)
        XCTAssertEqual(
            MCPSession.text(refused),
            "moya-cli: shop.createPerson sends POST, a write; start moya-cli mcp with --allow-writes to expose it")
        await mcp.close()
    }

    func testFileParamsOnlyWithAllowFilesAndOnlyInsideIt() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "inside".write(toFile: folder + "/in/doc.txt", atomically: true, encoding: .utf8)
        try "outside".write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/in/link.txt", withDestinationPath: folder + "/secret.txt")

        let without = try await session(["--allow-writes"])
        let upload = try await without.allTools().first { $0.name == "shop.upload" }
        XCTAssertEqual(upload.map { MCPSession.json($0.inputSchema).contains(#""doc""#) }, false)
        let unoffered = try await without.call("shop.upload", ["doc": "doc.txt"])
        XCTAssertEqual(MCPSession.text(unoffered), "$.doc: unexpected property")
        await without.close()

        let with = try await session(["--allow-writes", "--allow-files", folder + "/in"])
        let sent = try await with.call("shop.upload", ["doc": "doc.txt"])
        XCTAssertNil(sent.isError, MCPSession.text(sent))
        XCTAssertTrue(MCPSession.text(sent).contains(#""body" : "inside""#), MCPSession.text(sent))
        for path in ["../secret.txt", folder + "/secret.txt", "link.txt"] {
            let refused = try await with.call("shop.upload", ["doc": .string(path)])
            XCTAssertEqual(refused.isError, true)
            XCTAssertEqual(
                MCPSession.text(refused), "$.doc: is not inside \(folder)/in, the --allow-files folder", path)
        }
        // A FIFO inside the folder would block the upload: refused as a spec's file root does.
        XCTAssertEqual(mkfifo(folder + "/in/pipe", 0o600), 0)
        let pipe = try await with.call("shop.upload", ["doc": "pipe"])
        XCTAssertEqual(pipe.isError, true)
        XCTAssertTrue(MCPSession.text(pipe).hasSuffix("not a regular file"), MCPSession.text(pipe))
        await with.close()
    }

    func testListIsPaginatedInAStableOrder() async throws {
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-pages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let targets = (0..<250).map { "  t\($0):\n    path: /echo/\($0)\n" }.joined()
        try ("service: many\nbaseURL: http://127.0.0.1:9\ntargets:\n" + targets).write(
            toFile: folder + "/many.yaml", atomically: true, encoding: .utf8)
        let mcp = try await MCPSession(["--specs", folder])
        let first = try await mcp.client.listTools()
        XCTAssertEqual(first.tools.count, 100)
        XCTAssertEqual(first.nextCursor, "100")
        let all = try await mcp.allTools()
        XCTAssertEqual(all.map(\.name), (0..<250).map { "many.t\($0)" })
        await mcp.close()
        XCTAssertTrue(mcp.stderr.contains("--tools dynamic"), mcp.stderr)
    }
}

extension String {
    /// A member of a compact JSON object, as text, for a quick look.
    subscript(_ member: String) -> String? {
        guard let data = data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let value = object[member]
        else { return nil }
        return "\(value)"
    }
}

/// The secret matrix's sources (see SecretMatrixTests) through `mcp`: what is listed, every
/// result, the audit log and stderr with `-vv` hold no form of any secret, and each source is
/// shown reached by its mask where the server echoed it.
final class MCPSecretMatrixTests: XCTestCase {
    enum Source: String, CaseIterable {
        case param = "pa+r/am=1 é"
        case header = "he@der/v+2"
        case environment = #"en"v\u/3"#
        case bearer = "be/ar+er=4"
        case cookie = "c00kie-in-body"
        case capture = "r3fresh-t0ken-secret"
        case login = "acc3ss-t0ken"
    }

    func testNoSecretReachesTheModelTheAuditLogOrStderr() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-matrix-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let audit = folder + "/audit.jsonl"
        let mcp = try await MCPSession(
            [
                "--specs", MCPSession.root + "/Tests/Fixtures/secret-matrix/vault.yaml", "--allow-writes", "-vv",
                "--audit", audit,
            ],
            environment: [
                "TEST_SERVER": server.baseURL, "VAULT_ENV": Source.environment.rawValue,
                "VAULT_BEARER": Source.bearer.rawValue,
            ])
        let tools = try await mcp.allTools()
        XCTAssertEqual(
            tools.map(\.name),
            ["vault.echo", "vault.bearer", "vault.plain", "vault.cookie", "vault.denied"])
        var texts = ["tools/list": tools.map { MCPSession.json(try! Value($0)) }.joined(separator: "\n")]
        for (name, arguments) in [
            ("vault.bearer", [:]), ("vault.plain", [:]), ("vault.cookie", [:]), ("vault.relay", [:]),
            ("vault.echo", [:]), ("vault.denied", [:]), ("vault.plain", ["moya.select": Value.string("$..*")]),
        ] as [(String, [String: Value])] {
            let result = try await mcp.call(name, arguments)
            texts["\(name) \(arguments.keys.sorted())"] =
                MCPSession.text(result) + (result.structuredContent.map(MCPSession.json) ?? "")
        }
        await mcp.close()
        texts["stderr"] = mcp.stderr
        texts["audit"] = try String(contentsOfFile: audit, encoding: .utf8)
        for (output, text) in texts {
            for source in Source.allCases {
                for form in SecretForms.all(source.rawValue) where text.contains(form) {
                    XCTFail("\(output) shows \(source) as \(form):\n\(text)")
                }
            }
        }
        // Reached: each source the server echoed stands masked where it was.
        let bearer = texts["vault.bearer []"] ?? ""
        XCTAssertTrue(bearer.contains("\"Authorization\",\n      \"••••\""), bearer)
        XCTAssertTrue(bearer.contains("\"X-Static\",\n      \"••••\""), bearer)
        XCTAssertTrue(bearer.contains("e-••••"), bearer)
        // The relay calls the login's target: its captures and failures would carry the token.
        XCTAssertEqual(
            texts["vault.relay []"],
            "moya-cli: the flow vault.relay calls vault.mint, a login's call, which answers with a credential; "
                + "no flag exposes it")
        let cookie = texts["vault.cookie []"] ?? ""
        XCTAssertTrue(cookie.contains(#""sid" : "••••""#), cookie)
    }
}
