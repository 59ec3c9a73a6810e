import ArgumentParser
import Foundation
import MoyaArazzo
import MoyaCLI
import MoyaCompiler
import MoyaCore
import MoyaGenerate
import MoyaJSONPath
import MoyaMCP
import MoyaMCPProtocol
import MoyaOpenAPI
import MoyaRegex
import MoyaRuntime
import MoyaServe
import MoyaSpec
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The fuzz targets, chosen with `FUZZ_TARGET`: `spec` compiles the bytes as a spec, `json`
/// parses them as JSON and pretty-prints them, `url` percent-encodes them as query, form,
/// path and redaction text, `jsonpath` parses them as a JSON path and walks a document, `flow`
/// reads them as a `skip:` condition, a variable template and a `Set-Cookie` value, `serve`
/// reads them as an HTTP request (`METHOD URI`, header lines, a blank line, the body) and
/// answers it from the bundled specs and the serve fixtures, `openapi` imports them as an
/// OpenAPI document and compiles the spec it writes, which must compile, `generate` compiles
/// them as a spec and generates Swift for it, which must parse with `swiftc -parse`,
/// `select`, `serve-body` and `openapi-refs` are `SelectFuzz`'s, `ServeBodyFuzz`'s and
/// `OpenAPIRefsFuzz`'s; `serve-wire` sends them raw to a running `serve` while up to 63 idle connections are held,
/// after which a normal request must be answered, `record` records them as a response's body
/// into a spec (see `RecordFuzz`), `jwt` checks them as an `mcp --http` bearer token (see
/// `JWTFuzz`), `mcp-wire` sends them raw to a running `mcp --http` that requires tokens (see
/// `MCPWire`), and `arazzo` validates and imports them as an Arazzo document (see
/// `ArazzoFuzz`). Every input must end without a
/// crash; errors are fine. `spec` also compiles each target of a spec that compiles on its
/// own, as `call` does, and stops when that differs from the whole compile's target.
enum FuzzTargets {
    static let document: JSONValue = .object([
        (key: "a", value: .array([.integer(1), .object([(key: "b", value: .string("c"))]), .null])),
        (key: "d", value: .object([(key: "e", value: .array([.bool(true), .number(1.5)]))])),
    ])

    /// The bundled specs and the serve fixtures, routed once.
    static let router: MockRouter = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let library = SpecLibrary(
            searchPaths: [root + "/specs", root + "/Tests/Fixtures/serve"], compiler: SpecCompiler(environment: [:]))
        return MockRouter(services: (try? library.loadAll().services) ?? [])
    }()

    /// `METHOD URI`, header lines, a blank line and the body, as a request.
    static func request(_ bytes: [UInt8]) -> MockRequest {
        let text = String(decoding: bytes, as: UTF8.self)
        let (head, body) =
            text.firstRange(of: "\n\n").map { (text[..<$0.lowerBound], Array(text[$0.upperBound...].utf8)) }
            ?? (text[...], [])
        let lines = head.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.first?.split(separator: " ", maxSplits: 1) ?? []
        let headers = lines.dropFirst().map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (
                name: String(parts.first ?? ""),
                value: String(parts.dropFirst().first ?? "").trimmingCharacters(in: .whitespaces)
            )
        }
        return MockRequest(
            method: String(start.first ?? "GET"), uri: String(start.dropFirst().first ?? "/"), headers: headers,
            body: body)
    }

    static func run(_ bytes: [UInt8], target: String) {
        switch target {
        case "spec":
            let compiler = SpecCompiler(environment: ["TOKEN": "s3cr3t", "EMPTY": ""])
            guard let whole = try? compiler.compile(bytes, file: "fuzz.yaml") else {
                _ = try? compiler.compile(bytes, file: "fuzz.yaml", target: "a")
                return
            }
            for target in whole.targets.prefix(4) {
                let alone = try? compiler.compile(bytes, file: "fuzz.yaml", target: target.name)
                guard let found = alone?.target(named: target.name), "\(found)" == "\(target)" else {
                    fatalError("call's compile of \(target.name) differs from the whole compile's")
                }
            }
        case "serve":
            _ = router.answer(request(bytes), verbose: true)
        case "openapi":
            guard let imported = try? OpenAPIImporter.importSpec(bytes, file: "fuzz.yaml") else { return }
            // What import writes compiles, and reads no environment variable it did not make.
            do {
                _ = try SpecCompiler(environment: [:]).compile(Array(imported.spec.utf8), file: "fuzz.yaml")
            } catch {
                fatalError("import wrote a spec that does not compile:\n\(imported.spec)\n\(error.diagnostics)")
            }
        case "generate":
            let compiler = SpecCompiler(environment: .none)
            guard let service = try? compiler.compile(bytes, file: "fuzz.yaml") else { return }
            let source = SwiftGenerator(command: "moya-cli generate swift").generate(service).source
            if !SwiftParse.parses(source) { fatalError("generate swift wrote a file swiftc cannot parse:\n\(source)") }
        case "serve-wire":
            ServeWire.exchange(bytes)
        case "record":
            RecordFuzz.record(bytes)
        case "json":
            if let value = try? JSONValue(parsing: Data(bytes)) {
                _ = value.serialized(pretty: true)
                _ = JSONFormatter.format(bytes, colored: true)
            }
            _ = JSONFormatter.format(bytes, colored: false)
        case "url":
            let text = String(decoding: bytes, as: UTF8.self)
            let list: [any Sendable] = [text, 1, true]
            let nested: [String: any Sendable] = ["k": text]
            _ = URLEncoding.default.query(["key": text, "list": list, "nested": nested])
            _ = URLEncoding.escape(text)
            _ = Redactor(secretValues: [text]).scrub("prefix " + text + " suffix")
            _ = PrintableRequest.maskingPassword(text)
        case "regex":
            // The first line is a pattern, the rest a text: both matchers, every entry point.
            let text = String(decoding: bytes, as: UTF8.self)
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard let pattern = try? RegularExpression(String(parts[0])) else { return }
            let subject = parts.count > 1 ? String(parts[1]) : ""
            _ = try? pattern.matches(in: subject)
            _ = try? pattern.matchesWhole(subject)
            if let match = try? pattern.firstMatch(in: subject), match.groups.first??.isEmpty == nil {
                fatalError("a match without group 0 for /\(pattern)/")
            }
        case "jsonpath":
            let text = String(decoding: bytes, as: UTF8.self)
            if let path = try? JSONPath(parsing: text) { _ = path.values(in: document) }
        case "select":
            SelectFuzz.select(bytes)
        case "serve-body":
            _ = ServeBodyFuzz.router.answer(ServeBodyFuzz.request(bytes), verbose: false)
        case "openapi-refs":
            OpenAPIRefsFuzz.importChain(bytes)
        case "jwt":
            JWTFuzz.verify(bytes)
        case "mcp-wire":
            MCPWire.exchange(bytes)
        case "arazzo":
            ArazzoFuzz.importFlows(bytes)
        case "flow":
            let text = String(decoding: bytes, as: UTF8.self)
            var variables = FlowVariables()
            variables.set("a", to: document)
            if let condition = try? FlowCondition(parsing: text) { _ = variables.holds(condition) }
            _ = try? variables.render(VariableTemplate(text))
            var jar = CookieJar()
            if let url = URL(string: "https://api.example.com/a/b") {
                jar.store([text], from: url)
                _ = jar.header(for: url)
            }
        default:
            break
        }
    }
}

/// `select`: an MCP client's `moya.select`, a stranger's JSON path. The first line is the
/// path, the rest the body, in which a secret stands as a key, a value and a number; the path
/// runs on the scrubbed body within the tool's budget, and what it selects is printed as a
/// tool prints it. No form of the secret may come out, whatever the path.
enum SelectFuzz {
    static let secret = "s3cr3t-t0ken"
    static let redactor = Redactor(secretValues: [secret, "90210"])

    static func select(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = try? JSONPath(parsing: String(parts[0])) else { return }
        let given = parts.count > 1 ? (try? JSONValue(parsing: Data(parts[1].utf8))) : nil
        let body = JSONValue.object([
            (key: "given", value: given ?? .null), (key: secret, value: .string("Bearer " + secret)),
            (key: "pin", value: .integer(90210)),
            (key: "nested", value: .array([.string(secret), FuzzTargets.document])),
        ])
        guard let selected = path.values(in: redactor.scrubbing(body), budget: 200_000) else { return }
        let shown = JSONValue.array(selected).serialized(pretty: true, escapeSlashes: false, limit: 1 << 16)
        if shown.contains(secret) || standsAlone("90210", in: shown) {
            fatalError("moya.select '\(path)' shows a secret:\n\(shown)")
        }
    }

    /// Whether `digits` stand in `text` as a number of their own, not inside a longer one
    /// (`1590210` is not the PIN; any text holding the PIN is scrubbed whole).
    static func standsAlone(_ digits: String, in text: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(digits.utf8)
        guard bytes.count >= needle.count else { return false }
        let numeric = Set("0123456789.+-eE".utf8)
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            let before = start > 0 ? bytes[start - 1] : nil
            let after = start + needle.count < bytes.count ? bytes[start + needle.count] : nil
            if !(before.map(numeric.contains) ?? false), !(after.map(numeric.contains) ?? false) { return true }
        }
        return false
    }
}

/// `serve-body`: the bytes as a form, an XML document or a multipart body (by the first
/// byte) posted to a target with a `requestSchema:`, which serve reads as the JSON value the
/// schema describes, in time linear in the body.
enum ServeBodyFuzz {
    static let router: MockRouter = {
        let spec = """
            service: body
            baseURL: http://127.0.0.1:4010
            targets:
              post:
                method: POST
                path: /body
                requestSchema:
                  type: object
                  required: [name, tags]
                  properties:
                    name: { type: string }
                    count: { type: integer }
                    ok: { type: boolean }
                    tags: { type: array, items: { type: string } }
                    inner: { type: object, properties: { a: { type: number } } }
                sample: { json: { ok: true } }
            """
        let service = try? SpecCompiler(environment: [:]).compile(Array(spec.utf8), file: "body.yaml")
        return MockRouter(services: service.map { [$0] } ?? [])
    }()

    static func request(_ bytes: [UInt8]) -> MockRequest {
        let types = [
            "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=b",
        ]
        let type = types[Int(bytes.first ?? 0) % types.count]
        return MockRequest(
            method: "POST", uri: "/body", headers: [(name: "Content-Type", value: type)],
            body: Array(bytes.dropFirst()))
    }
}

/// `openapi-refs`: a document of component schemas whose `$ref`s the bytes choose, each to a
/// schema or into one (`#/components/schemas/sN/properties/x`, `…/items`), chains and cycles
/// of any length, imported: import must end, with or without a spec, and what it writes must
/// compile.
enum OpenAPIRefsFuzz {
    static func importChain(_ bytes: [UInt8]) {
        let count = max(1, min(bytes.count, 4000))
        var schemas: [String] = []
        for index in 0..<count {
            let byte = index < bytes.count ? Int(bytes[index]) : 0
            let next = (index + 1 + byte / 4) % count
            let reference: String
            switch byte % 4 {
            case 0: reference = "#/components/schemas/s\(next)"
            case 1: reference = "#/components/schemas/s\(next)/properties/x"
            case 2: reference = "#/components/schemas/s\(next)/properties/x/items"
            default: reference = "#/components/schemas/s\(next)/properties/y"
            }
            schemas.append(
                "\"s\(index)\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"array\", "
                    + "\"items\": {\"$ref\": \"\(reference)\"}}, \"y\": {\"$ref\": \"\(reference)\"}}}")
        }
        let document = """
            {"openapi": "3.0.3", "info": {"title": "refs", "version": "1"},
             "paths": {"/a": {"post": {"operationId": "a", "requestBody": {"content": {"application/json":
               {"schema": {"$ref": "#/components/schemas/s0"}}}},
               "responses": {"200": {"description": "ok", "content": {"application/json":
                 {"schema": {"$ref": "#/components/schemas/s0/properties/y"}}}}}}}},
             "components": {"schemas": {\(schemas.joined(separator: ", "))}}}
            """
        // The spec names the document's schemas by `$ref` into it, beside the spec.
        let file = RecordFuzz.folder + "/refs.json"
        guard (try? Data(document.utf8).write(to: URL(fileURLWithPath: file))) != nil,
            let imported = try? OpenAPIImporter.importSpec(Array(document.utf8), file: file)
        else { return }
        do {
            _ = try SpecCompiler(environment: [:]).compile(
                Array(imported.spec.utf8), file: RecordFuzz.folder + "/refs.yaml")
        } catch {
            fatalError("import wrote a spec that does not compile:\n\(error.diagnostics)")
        }
    }
}

/// `record`: the bytes as a live response's body (its content type chosen by the first
/// byte), recorded into a spec by `--record`'s recorder. A recording that is written must
/// compile, answer with the body it recorded and hold no secret of the request's in any
/// encoding; one that is refused is fine.
enum RecordFuzz {
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "moya-fuzz-record-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()
    static let secret = "s3cr\u{e4}t-t0k/en"
    static let spec = """
        # A spec the fuzzer records into.
        service: rec
        baseURL: http://127.0.0.1:9
        headers:
          X-Key: { value: "${KEY}", secret: true }
        targets:
          body:
            path: /body

          other:
            path: /other
            sample: { json: { id: 1 } }

        """
    static let types = ["application/json", "text/plain", "application/octet-stream", "text/html", ""]

    static func record(_ bytes: [UInt8]) {
        let file = folder + "/rec.yaml"
        guard (try? spec.write(toFile: file, atomically: true, encoding: .utf8)) != nil else { return }
        let compiler = SpecCompiler(environment: ["KEY": secret])
        guard let service = try? compiler.compile(file: file), let target = service.target(named: "body"),
            let url = URL(string: "http://127.0.0.1:9/body")
        else { fatalError("the fuzz spec does not compile") }
        var headers = HTTPHeaders()
        let type = types[Int(bytes.first ?? 0) % types.count]
        if !type.isEmpty { headers.add(name: "Content-Type", value: type) }
        var requestHeaders = HTTPHeaders()
        requestHeaders.add(name: "X-Key", value: secret)
        let response = Response(
            statusCode: 200, data: Data(bytes.dropFirst()), request: Request(url: url, headers: requestHeaders),
            response: ResponseHead(statusCode: 200, headers: headers))
        let redactor = Redactor(secretHeaders: ["X-Key"], secretValues: [secret])
        let recorder = SampleRecorder(check: EditCheck(compiler), services: [service])
        guard
            let recording = try? recorder.record(
                response, redactor: redactor, target: target, of: service, named: nil)
        else { return }
        guard let written = FileManager.default.contents(atPath: file),
            let again = try? compiler.compile(file: file), let recorded = again.target(named: "body")
        else { fatalError("a recorded spec does not compile:\n\(recording.diff)") }
        let text = String(decoding: written, as: UTF8.self)
        // The whole secret in each form; a body that holds only part of it (a quote inserted in
        // the middle, `s3cr\u00e4t-t0k"/en`) does not hold the secret.
        for form in [secret, "s3cr\\u00e4t-t0k/en", "s3cr\\u00e4t-t0k\\/en", "s3cr%C3%A4t-t0k%2Fen"]
        where text.contains(form) {
            fatalError("a secret is recorded as \(form):\n\(text)")
        }
        guard case .response(_, let body)? = try? again.sample(of: recorded, named: nil, values: [:]) else {
            fatalError("a recorded sample does not answer:\n\(text)")
        }
        let expected = redactor.scrub(bytes: Array(bytes.dropFirst()))
        // A JSON body with a string that was a secret whole is written as the masked value,
        // whose serialization may be spelled otherwise; any other body answers with the very
        // bytes, scrubbed.
        let bothJSON = (try? JSONValue(parsing: body)) != nil && (try? JSONValue(parsing: Data(expected))) != nil
        if Array(body) != expected, !bothJSON {
            fatalError("a recorded sample answers with other bytes:\n\(text)")
        }
        if String(decoding: body, as: UTF8.self).contains(secret) { fatalError("a secret is in the recorded body") }
    }
}

/// `swiftc -parse` on generated code.
enum SwiftParse {
    static func parses(_ source: String) -> Bool {
        let file = NSTemporaryDirectory() + "moya-fuzz-\(getpid()).swift"
        guard (try? source.write(toFile: file, atomically: true, encoding: .utf8)) != nil else { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-parse", file]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return true }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// A server command of moya-cli's run in this process on a free port, started once per
/// target, and the input sent to it raw beside idle connections (as many as its first byte
/// says, up to 63), after which a normal request must still be answered.
enum WireServer {
    /// Starts `moya-cli ARGUMENTS` on a thread of its own; the port it logs it listens on.
    static func start(_ arguments: [String]) -> Int {
        let found = Mutex<Int?>(nil)
        let context = CommandContext(
            environment: Environment([:]), writeOut: { _ in },
            writeError: { bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                if let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)/) { found.withLock { $0 = Int(match.1) } }
            })
        Thread.detachNewThread {
            let done = DispatchSemaphore(value: 0)
            _Concurrency.Task {
                _ = await MoyaCLI.run(arguments, context: context)
                done.signal()
            }
            done.wait()
        }
        while true {
            if let port = found.withLock({ $0 }) { return port }
            usleep(10_000)
        }
    }

    /// Sends `bytes` (past the first) to `port`, then `probe`, whose answer must start with
    /// `expected`.
    static func exchange(_ bytes: [UInt8], port: Int, probe: String, expected: String, server: String) {
        // Each connection is reset when it is done, so that hundreds a second leave no
        // TIME_WAIT behind to run loopback out of ephemeral ports.
        let open = { () -> LoopbackSocket? in
            let socket = LoopbackSocket(port: port, timeout: 2)
            socket?.resetsOnClose = true
            return socket
        }
        let idle = (0..<Int(bytes.first ?? 0) % 64).compactMap { _ in open() }
        if let socket = open() {
            socket.send(Array(bytes.dropFirst()))
            _ = socket.read(upTo: 4096)
        }
        guard let socket = open() else { fatalError("\(server) stopped accepting") }
        socket.send(probe)
        guard socket.read(upTo: 16).starts(with: Array(expected.utf8)) else {
            fatalError("\(server) did not answer a normal request beside \(idle.count) idle connections")
        }
    }
}

/// A `serve` of the serve fixtures, as `WireServer` runs it.
enum ServeWire {
    static let port: Int = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        return WireServer.start(["serve", root + "/Tests/Fixtures/serve", "--port", "0", "--idle-timeout", "1"])
    }()

    static func exchange(_ bytes: [UInt8]) {
        WireServer.exchange(
            bytes, port: port, probe: "GET /api/v2/items HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            expected: "HTTP/1.1 ", server: "serve")
    }
}

/// `jwt`: the bytes as a bearer token of `mcp --http`, checked against a key set of one
/// P-256 key (RFC 7515's A.3 example) whose private half the fuzzer does not have: no input may
/// verify, whatever its form.
enum JWTFuzz {
    /// The key set: one P-256 public key.
    static let keySet =
        #"{"keys":[{"kty":"EC","kid":"k","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#

    static let tokens: BearerTokens = {
        guard let keys = try? SigningKeys(jwks: Array(keySet.utf8)) else {
            fatalError("the fuzz key set does not read")
        }
        return BearerTokens(issuer: "https://auth.test", audience: "https://mcp.test/mcp", keys: keys)
    }()

    static func verify(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        let outcome = Mutex<Result<BearerTokens.Holder, BearerTokens.Refusal>?>(nil)
        let done = DispatchSemaphore(value: 0)
        _Concurrency.Task {
            let result = await tokens.verify(token)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        if case .success? = outcome.withLock({ $0 }) { fatalError("a token verified without the key: \(token)") }
    }
}

/// An `mcp --http` that requires tokens, as `WireServer` runs it: after the input, a request
/// for its resource metadata must be answered 200.
enum MCPWire {
    static let port: Int = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let jwks = NSTemporaryDirectory() + "moya-fuzz-jwks-\(getpid()).json"
        guard (try? JWTFuzz.keySet.write(toFile: jwks, atomically: true, encoding: .utf8)) != nil else {
            fatalError("cannot write \(jwks)")
        }
        return WireServer.start([
            "mcp", "--specs", root + "/specs/myservice.yaml", "--stub", "immediate", "--http", "127.0.0.1:0",
            "--auth-issuer", "https://auth.test", "--audience", "https://mcp.test/mcp", "--jwks", jwks,
        ])
    }()

    static func exchange(_ bytes: [UInt8]) {
        WireServer.exchange(
            bytes, port: port,
            probe: "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            expected: "HTTP/1.1 200", server: "mcp")
    }
}

/// `arazzo`: the bytes as an Arazzo document beside the shop fixture's OpenAPI description:
/// validated, and, when valid, imported to flows, within the bounds of every expansion.
enum ArazzoFuzz {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    static let file = root + "/Tests/Fixtures/arazzo/fuzz.arazzo.yaml"
    static let services: [ArazzoImporter.Service] = {
        let path = root + "/Tests/Fixtures/arazzo/shop.openapi.yaml"
        guard let data = FileRoot.specBytes(path), let imported = try? OpenAPIImporter.importSpec(data, file: path)
        else { fatalError("the shop fixture does not import") }
        return [.init(source: "shop", name: imported.service, operations: imported.imported)]
    }()

    static func importFlows(_ bytes: [UInt8]) {
        guard let document = try? ArazzoDocument(bytes, file: file) else { return }
        let sources = ArazzoSource.load(document, fileRoot: FileRoot(spec: file))
        let validator = ArazzoValidator(document, sources: sources)
        guard !validator.diagnostics.contains(where: { $0.severity == .error }) else { return }
        _ = ArazzoImporter.flows(document, services: services)
    }
}

#if FUZZING
    /// libFuzzer's entry point.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
        let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
        FuzzTargets.run(bytes, target: FuzzEnvironment.target)
        return 0
    }

    enum FuzzEnvironment {
        static let target = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? "spec"
    }

    /// libFuzzer's driver, which parses its flags and runs the entry point.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
    ) -> CInt

    /// SwiftPM links an executable's `main` to `<product>_main`; here it hands over to libFuzzer.
    @_cdecl("moya_fuzz_main")
    public func fuzzMain(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> CInt {
        // Built before the first input, so that its memory is not counted as that input's leak.
        if FuzzEnvironment.target == "serve" { _ = FuzzTargets.router }
        if FuzzEnvironment.target == "jwt" { _ = JWTFuzz.tokens }
        if FuzzEnvironment.target == "arazzo" { _ = ArazzoFuzz.services }
        var count = argc
        var arguments = argv
        return runDriver(&count, &arguments) { start, size in fuzz(start, size) }
    }
#else
    /// Without libFuzzer: replays inputs, as the tests do with what fuzzing found.
    @main
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "moya-fuzz", abstract: "Replay inputs through one of moya-cli's fuzz targets.")

        @Argument(
            help: ArgumentHelp(
                "The target: spec, json, url, jsonpath, select, flow, serve, serve-body, openapi, openapi-refs, "
                    + "generate, serve-wire, record, jwt, mcp-wire or arazzo."))
        var target: String

        @Argument(help: "Input files.")
        var files: [String] = []

        func run() {
            for path in files {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                FuzzTargets.run(Array(data), target: target)
            }
        }
    }
#endif
