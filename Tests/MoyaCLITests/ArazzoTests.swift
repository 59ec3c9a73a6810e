import Foundation
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaSpec
import TestSupport
import XCTest

/// Arazzo documents (issue 59): `validate` against the specification's own schema tests and
/// examples, `import arazzo` to flows, and `run FILE WORKFLOW` against `serve`.
final class ArazzoTests: XCTestCase {
    var fixtures: String { CommandTests.root + "/Tests/Fixtures/arazzo" }

    static func shared() throws -> String { try Repository.shared("arazzo", variable: "ARAZZO") }

    /// A new folder, removed after the test.
    func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "arazzo-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    /// The shop fixture imported with `import arazzo` into a new folder, and `serve` of it.
    func servedShop() async throws -> (directory: String, served: ServeTests.Served) {
        let directory = try temporaryDirectory() + "/specs"
        let (imported, _, importError) = await CommandTests.run(
            ["import", "arazzo", fixtures + "/shop.arazzo.yaml", "-o", directory])
        XCTAssertEqual(imported, 0, importError)
        return (directory, try await ServeTests.Served([directory + "/shop.yaml"]))
    }

    /// The 35 documents the 1.1 schema must accept pass, and the 27 it must refuse fail (exit
    /// 65). One accepted document names a step no workflow has (`$steps.previous`), which the
    /// schema cannot see: validate passes it with a warning.
    func testValidateAgreesWithTheSchemaTests() async throws {
        let folder = try Self.shared() + "/schema-tests"
        for verdict in ["pass", "fail"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + verdict).sorted()
            XCTAssertEqual(files.count, verdict == "pass" ? 35 : 27)
            for file in files {
                let path = folder + "/" + verdict + "/" + file
                let (status, out, error) = await CommandTests.run(["validate", path])
                if file == "payload-replacement-using-selector.arazzo.yaml" {
                    XCTAssertEqual(
                        error.split(separator: "\n").filter { $0.contains("'previous'") }.map(String.init),
                        [
                            "\(path):19:26: warning: workflows[0].steps[0].requestBody.replacements[0].value.context: "
                                + "no step of this workflow has the id 'previous'; the expression has no value"
                        ])
                }
                XCTAssertEqual(status, verdict == "pass" ? 0 : 65, "\(verdict)/\(file): \(error)")
                if verdict == "pass" { XCTAssertTrue(out.hasPrefix("ok: \(path): "), out) }
            }
        }
    }

    /// Every example of the specification validates, each with the OpenAPI description beside
    /// it, or for the two that name one on the web, with `--source`.
    func testValidateAcceptsEveryExample() async throws {
        let folder = try Self.shared() + "/examples-1.0.0"
        let examples = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("arazzo") }
        XCTAssertEqual(examples.count, 6)
        for example in examples {
            let (status, _, error) = await CommandTests.run(["validate", folder + "/" + example])
            XCTAssertEqual(status, 0, "\(example): \(error)")
        }
        let (status, out, _) = await CommandTests.run([
            "validate", folder + "/bnpl-arazzo.yaml", "--source", "BnplApi=\(folder)/bnpl-openapi.yaml",
        ])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "ok: \(folder)/bnpl-arazzo.yaml: 1 workflow, 7 steps\n")
    }

    /// What a schema cannot say, each at its place: a 1.1 field in a 1.0 document, an
    /// operationId no description has, a condition that ends early, a goto to no step, a
    /// misspelt expression.
    func testValidateSaysWhereAndWhat() async throws {
        let file = fixtures + "/broken.arazzo.yaml"
        let (status, out, error) = await CommandTests.run(["validate", file])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            \(file):12:42: warning: workflows[0].steps[0].parameters[0].value: the workflow's inputs declare no 'id'
            \(file):20:28: warning: workflows[0].steps[1].requestBody.payload.item: step 'look' declares no output 'id'
            \(file):10:18: error: workflows[0].steps[0].timeout: a step's 'timeout' is new in Arazzo 1.1; this document is 1.0.1
            \(file):9:22: error: workflows[0].steps[0].operationId: no operation has the operationId 'showItm' in 'shop'; did you mean 'showItem'?
            \(file):14:24: error: workflows[0].steps[0].successCriteria[0].condition: '$statusCode == 200 &&': the condition ends too early
            \(file):16:47: error: workflows[0].steps[0].onSuccess[0].stepId: no step of this workflow has the id 'pay'
            \(file):20:62: error: workflows[0].steps[1].requestBody.payload.quantity: '$reqest.body': '$reqest' is not a runtime expression; expected $url, $method, $statusCode, $request, $response, $inputs, $outputs, $steps, $workflows, $sourceDescriptions or $components
            moya-cli: error: invalid spec: 5 problems in 1 file

            """)
    }

    /// The shop's workflows as flows, whole: inputs as vars, criteria as expect, outputs as
    /// captures, a retry as until and retry, the inlined workflow's steps in its step's place;
    /// and the goto that a flow cannot hold, a warning.
    func testImportWritesTheFlows() throws {
        let (status, out, error) = try CommandTests.runProcess(["import", "arazzo", "shop.arazzo.yaml"], in: fixtures)
        XCTAssertEqual(status, 0, error)
        let flows = out.split(separator: "\nflows:\n", maxSplits: 1).last.map(String.init)
        XCTAssertEqual(flows, Self.shopFlows)
        XCTAssertEqual(
            error.split(separator: "\n").filter { $0.hasPrefix("shop.arazzo.yaml") },
            [
                "shop.arazzo.yaml:49:52: warning: workflows[1].steps[0].requestBody.payload.quantity: the workflow's "
                    + "inputs declare no 'quantity'",
                "shop.arazzo.yaml:38:13: warning: workflows[0].steps[2].onFailure[1]: a flow runs its steps in order; "
                    + "the failure action 'jump' (goto) is left out",
                "shop.arazzo.yaml:55:7: warning: workflows[1].outputs: a flow has no outputs of its own; its variables "
                    + "are what its steps capture",
            ])
    }

    static let shopFlows = """
          buy:
            summary: "Look an item up, then order it"
            vars: { id: 7, quantity: null }
            steps:
              -
                name: look
                call: showItem
                params: { id: "{id}" }
                expect:
                  status: 200
                  json: { "$.price": { lt: 100 }, "$.name": { not: { "equals": null } } }
                capture: { itemId: { json: "$.id", optional: true } }
              -
                name: order.post
                call: placeOrder
                params: { item: "{itemId}", quantity: "{quantity}" }
                expect: { status: [ 201, 200 ] }
                capture: { order: { json: "$.order", optional: true } }
              -
                name: again
                call: showItem
                params: { id: "{order}" }
                until: { status: "2xx" }
                retry: { every: "0.5s", times: 3 }
          place:
            vars: { item: null, quantity: null }
            steps:
              -
                name: post
                call: placeOrder
                params: { item: "{item}", quantity: "{quantity}" }
                expect: { status: [ 201, 200 ] }
                capture: { order: { json: "$.order", optional: true } }

        """

    /// A helper that is not there is a program that is not installed, 69, as a secret's
    /// program that is not installed is; before it ran, nothing was made.
    func testAMissingHelperIsUnavailable() async throws {
        let missing = NSTemporaryDirectory() + "no-such-folder-\(getpid())/moya-cli-tools"
        let (status, out, error) = await CommandTests.run(
            ["run", fixtures + "/shop.arazzo.yaml", "buy"], environment: ["MOYA_CLI_TOOLS": missing])
        XCTAssertEqual(status, 69, error)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, "moya-cli: error: cannot run \(missing): No such file or directory\n")
    }

    /// `run FILE WORKFLOW` against `serve` of the imported spec: the same lines as `run
    /// SERVICE.FLOW`, and a failure placed at its step in the document.
    func testRunAWorkflowAgainstServe() async throws {
        let (directory, served) = try await servedShop()
        let environment = ["SHOP_URL": served.url + "/v1"]
        let (status, out, error) = await CommandTests.run(
            ["run", fixtures + "/shop.arazzo.yaml", "buy", "--var", "quantity=2"], environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out.replacing(/\(\d+ ms\)/, with: "(ms)").replacing(/in \d+\.\d+ s/, with: "in s"),
            """
            PASS  look  200  (ms)
            PASS  order.post  201  (ms)
            PASS  again  200  (ms)

            shop.buy: 3 steps: 3 passed, 0 failed, 0 skipped in s

            """)
        // The price is 12: a document that wants it under 10 fails at its step.
        let strict = directory + "/strict.arazzo.yaml"
        let text = try String(contentsOfFile: fixtures + "/shop.arazzo.yaml", encoding: .utf8)
            .replacing("$response.body#/price < 100", with: "$response.body#/price < 10")
            .replacing("./shop.openapi.yaml", with: fixtures + "/shop.openapi.yaml")
        try text.write(toFile: strict, atomically: true, encoding: .utf8)
        let (failed, failure, _) = await CommandTests.run(
            ["run", strict, "buy", "--source", "shop=\(fixtures)/shop.openapi.yaml"], environment: environment)
        XCTAssertEqual(failed, 1)
        XCTAssertTrue(
            failure.contains("\(strict):14:9: look: expect.json.$.price: expected < 10, got 12"), failure)
        _ = await served.stop()
    }
}

extension ArazzoTests {
    /// `check FILE.arazzo.yaml` runs every workflow as a check: `buy` passes against serve, and
    /// `place`, whose required input `item` nothing sets, fails at its step in the document.
    func testCheckRunsEveryWorkflow() async throws {
        let (_, served) = try await servedShop()
        let (status, out, _) = await CommandTests.run(
            ["check", fixtures + "/shop.arazzo.yaml"], environment: ["SHOP_URL": served.url + "/v1"])
        XCTAssertEqual(status, 1)
        let file = fixtures + "/shop.arazzo.yaml"
        XCTAssertEqual(
            out.replacing(/\(\d+ ms\)/, with: "(ms)").replacing(/in \d+\.\d+ s/, with: "in s"),
            """
            PASS  shop.buy (flow)  (ms)
            FAIL  shop.place (flow)  (ms)
                  \(file):45:9: post: params.item: param 'item' expects an int, got "null"

            2 checks: 1 passed, 1 failed, 0 skipped in s

            """)
        _ = await served.stop()
    }
}

extension ArazzoTests {
    /// Flows → Arazzo → flows is the identity: every flow of the bundled specs and of the flow
    /// fixtures, exported with `export arazzo`, validated (by moya-cli's schema and the
    /// specification's own 1.1 schema), imported with `import arazzo`, describes the same.
    func testExportThenImportGivesTheSameFlows() async throws {
        let official = try Self.shared() + "/schemas/arazzo-1.1-schema.yaml"
        let cases = [
            (CommandTests.root + "/specs", "myservice"), (CommandTests.root + "/Tests/Fixtures/flows", "flows"),
        ]
        for (specs, service) in cases {
            let directory = try temporaryDirectory()
            let document = directory + "/\(service).arazzo.yaml"
            let (exported, _, exportError) = await CommandTests.run(
                ["export", "arazzo", service, "--specs", specs, "-o", document])
            XCTAssertEqual(exported, 0, exportError)
            let (valid, _, validError) = await CommandTests.run(["validate", document])
            XCTAssertEqual(valid, 0, validError)
            let officialErrors = try Self.officialErrors(document, schema: official)
            XCTAssertEqual(officialErrors, [], "\(service): the specification's 1.1 schema")
            let (imported, _, importError) = await CommandTests.run(
                ["import", "arazzo", document, "-o", directory + "/back"])
            XCTAssertEqual(imported, 0, importError)

            let environment = Environment([:])
            let original = try SpecLibrary(searchPaths: [specs], compiler: SpecCompiler(environment: environment))
                .service(named: service)
            let back = try FileManager.default.contentsOfDirectory(atPath: directory + "/back").filter {
                $0.hasSuffix(".yaml") && !$0.contains(".openapi.")
            }
            let again = try SpecCompiler(environment: environment).compile(
                file: directory + "/back/" + XCTUnwrap(back.first))
            XCTAssertFalse(original.flows.isEmpty)
            XCTAssertEqual(again.flows.map(\.name), original.flows.map(\.name))
            for (flow, returned) in zip(original.flows, again.flows) {
                XCTAssertEqual(Self.described(returned), Self.described(flow), "\(service).\(flow.name)")
            }
        }
    }

    /// Everything a flow does, a line per part, without where it is written.
    static func described(_ flow: FlowSpec) -> [String] {
        func step(_ step: FlowStep, _ kind: String) -> [String] {
            var lines = ["\(kind) \(step.name): call \(step.targetReference)"]
            lines += step.arguments.map { "  param \($0.name) = \($0.value)" }
            lines += step.assertions.map { "  expect \($0.keyPath): \($0.subject) \($0.predicate)" }
            lines += step.captures.map {
                "  capture \($0.name): \($0.source) /\($0.pattern?.source ?? "")/ secret \($0.isSecret) "
                    + "optional \($0.isOptional)"
            }
            lines += step.until.map { "  until \($0.keyPath): \($0.subject) \($0.predicate)" }
            if let retry = step.retry { lines.append("  retry \(retry)") }
            if let each = step.each { lines.append("  each \(each)") }
            if let skip = step.skip { lines.append("  skip \(skip)") }
            if let sample = step.sample { lines.append("  sample \(sample)") }
            if let pages = step.pages { lines.append("  pages \(pages)") }
            return lines
        }
        return ["summary \(flow.summary ?? "")", "mcp \(flow.mcpExposed)"]
            + flow.variables.map { "var \($0.name) = \($0.value)" }
            + flow.steps.flatMap { step($0, "step") } + flow.finally.flatMap { step($0, "finally") }
    }

    /// The official schema's errors, by Python's jsonschema.
    static func officialErrors(_ document: String, schema: String) throws -> [String] {
        let script = """
            import sys, yaml, jsonschema
            schema = yaml.safe_load(open(sys.argv[1]))
            document = yaml.safe_load(open(sys.argv[2]))
            for error in jsonschema.Draft202012Validator(schema).iter_errors(document):
                print(error.json_path + ": " + error.message[:200])
            """
        let (status, out, error) = try CommandTests.runProcess(
            ["-c", script, schema, document], executable: "python3")
        XCTAssertEqual(status, 0, error)
        return out.split(separator: "\n").map(String.init)
    }
}

extension ArazzoTests {
    /// Finding 11: workflows that run each other many times over (8 deep, 6 each: 6^7 steps
    /// from a 2 KB document) are bounded: a flow that would come to more than 1,000 steps is
    /// left out, said at its place, and the import ends at once.
    func testNestedWorkflowsAreBounded() async throws {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: fixtures + "/shop.openapi.yaml", toPath: directory + "/shop.openapi.yaml")
        var document = """
            arazzo: 1.1.0
            info: { title: Nest, version: "1" }
            sourceDescriptions:
              - { name: shop, url: ./shop.openapi.yaml, type: openapi }
            workflows:

            """
        for level in 0..<7 {
            document += "  - workflowId: w\(level)\n    steps:\n"
            for step in 0..<6 { document += "      - { stepId: s\(step), workflowId: w\(level + 1) }\n" }
        }
        document += """
              - workflowId: w7
                steps:
                  - stepId: look
                    operationId: showItem
                    parameters: [ { name: id, in: path, value: 1 } ]

            """
        try document.write(toFile: directory + "/nest.arazzo.yaml", atomically: true, encoding: .utf8)
        let started = Date()
        let (status, out, error) = await CommandTests.run(
            ["import", "arazzo", "nest.arazzo.yaml"], in: directory)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error.split(separator: "\n").filter { $0.hasPrefix("nest.arazzo.yaml") },
            (0..<4).map { level in
                "nest.arazzo.yaml:\(8 + 8 * level):7: warning: workflows[\(level)].steps: with the workflows its "
                    + "steps run inlined, it comes to more than 1000 steps; it is left out"
            })
        XCTAssertFalse(out.contains("  w3:\n"), out)
        XCTAssertTrue(out.contains("  w4:\n"), out)
    }
}

extension ArazzoTests {
    /// Everyday use, round five, item 9: a repository's `arazzo/` folder naming
    /// `../openapi.yaml`, its steps saying `some-api.getThing` as Redocly's respect reads them.
    /// The refusal's hint names `--file-root`, which `validate`, `import arazzo` and `run` take;
    /// `SOURCE.operationId` is read, with a warning.
    func testARepositorysArazzoFolderRunsWithFileRoot() async throws {
        let repository = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: repository + "/arazzo", withIntermediateDirectories: true)
        try """
        openapi: 3.0.3
        info: { title: Things, version: "1" }
        servers: [{ url: "https://things.example" }]
        paths:
          /things/1:
            get:
              operationId: getThing
              responses:
                "200": { description: ok, content: { application/json: { example: { id: 1 } } } }

        """.write(toFile: repository + "/openapi.yaml", atomically: true, encoding: .utf8)
        let document = repository + "/arazzo/things.arazzo.yaml"
        try """
        arazzo: 1.0.1
        info: { title: Things, version: "1" }
        sourceDescriptions:
          - { name: some-api, url: ../openapi.yaml, type: openapi }
        workflows:
          - workflowId: fetch
            steps:
              - stepId: get
                operationId: some-api.getThing
                successCriteria: [{ condition: $statusCode == 200 }]

        """.write(toFile: document, atomically: true, encoding: .utf8)
        // Unread, the source is a warning whose hint names an option that works here.
        let (unread, _, refusal) = await CommandTests.run(["validate", document])
        XCTAssertEqual(unread, 0, refusal)
        XCTAssertTrue(refusal.contains("--file-root DIR allows another folder"), refusal)

        let (valid, _, warnings) = await CommandTests.run(["validate", document, "--file-root", repository])
        XCTAssertEqual(valid, 0, warnings)
        XCTAssertEqual(
            warnings,
            "\(document):9:22: warning: workflows[0].steps[0].operationId: 'some-api.getThing' is read as "
                + "$sourceDescriptions.some-api.getThing, the form Arazzo defines; write it so\n")

        let specs = repository + "/specs"
        let (imported, _, importError) = await CommandTests.run([
            "import", "arazzo", document, "--file-root", repository, "-o", specs,
        ])
        XCTAssertEqual(imported, 0, importError)
        let (ran, out, runError) = await CommandTests.run([
            "run", document, "fetch", "--file-root", repository, "--stub", "immediate",
        ])
        XCTAssertEqual(ran, 0, runError)
        XCTAssertTrue(out.contains("get"), out)
    }
}
