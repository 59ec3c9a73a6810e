import MoyaCompiler
import MoyaCore
import MoyaOpenAPI
import MoyaSpec
import XCTest

/// An operation that answers only as a stream imports as a stream target: `text/event-stream`
/// as `stream: sse`, JSON Lines as `stream: ndjson` with OpenAPI 3.2's `itemSchema` as the
/// target's per-event schema; one that also answers JSON is left to the `Content-Type`.
final class StreamImportTests: XCTestCase {
    static let document = """
        openapi: 3.2.0
        info: { title: LLM, version: "1" }
        servers: [ { url: "http://127.0.0.1:9" } ]
        paths:
          /chat:
            post:
              operationId: chat
              responses:
                "200":
                  description: tokens
                  content:
                    text/event-stream:
                      itemSchema: { type: object, required: [data], properties: { data: { type: string } } }
          /logs:
            get:
              operationId: logs
              responses:
                "200":
                  description: lines
                  content:
                    application/jsonl:
                      itemSchema: { type: object, properties: { level: { type: string } } }
          /both:
            get:
              operationId: both
              responses:
                "200":
                  description: either
                  content:
                    application/json: { schema: { type: object } }
                    text/event-stream: { schema: { type: string } }
        """

    func testStreamOperationsBecomeStreamTargets() throws {
        let folder = NSTemporaryDirectory() + "moya-openapi-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.document.write(toFile: folder + "/llm.yaml", atomically: true, encoding: .utf8)
        let imported = try OpenAPIImporter.importSpec(
            Array(Self.document.utf8), file: folder + "/llm.yaml", spec: folder + "/llm.moya.yaml")
        let service = try SpecCompiler(environment: Environment([:])).compile(
            Array(imported.spec.utf8), file: folder + "/llm.moya.yaml")
        let kinds = service.targets.map { "\($0.name): \($0.stream?.kind?.rawValue ?? "none")" }
        XCTAssertEqual(kinds, ["chat: sse", "logs: ndjson", "both: none"])
        XCTAssertTrue(
            imported.spec.contains(
                #"schema: { $ref: "llm.yaml#/paths/~1logs/get/responses/200/content/application~1jsonl/itemSchema" }"#),
            imported.spec)
        XCTAssertNil(service.targets.first { $0.name == "chat" }?.schema)
        XCTAssertEqual(
            imported.warnings.map(\.description),
            [
                folder
                    + "/llm.yaml#/paths/~1chat/post/responses/200/content/text~1event-stream/itemSchema: an event stream's "
                    + "itemSchema describes whole events, and a target's schema each event's data; left out"
            ])
    }
}
