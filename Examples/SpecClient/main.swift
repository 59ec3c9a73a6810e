import MoyaCompiler
// The bundled myservice spec sent through MoyaRuntime, as `moya-cli call` and `run` send it,
// then a target behind a login, a typed failure, and one compiled schema shared by tasks: what
// docs/runtime.md shows.
// Usage: spec-client-example [SPECS]; the server is $MOYA_SERVE_URL (`moya-cli serve specs
// --env local`, or the tests' server, which also answers the login at POST /token).
import MoyaHTTP
import MoyaRuntime
import MoyaSchema
import MoyaSpec

let compiler = SpecCompiler(environment: .process)
let catalog = try SpecLibrary(searchPaths: [CommandLine.arguments.dropFirst().first ?? "specs"], compiler: compiler)
    .loadAll()
let client = SpecClient(services: catalog.services, environment: "local")

// What `call --dry-run --json` prints, then the call itself.
print(RequestPrinter(try client.prepare("myservice.showUser", ["id": .int(1)]).printable()).json)
let user = await client.send("myservice.showUser", ["id": .int(1)])
print(user.response.map { String(decoding: $0.data, as: UTF8.self) } ?? user.failure?.message ?? "")

// A target whose `auth:` is a login: the client logs in once and sends the token.
let guarded = try compiler.compile(
    Array(
        """
        service: guarded
        baseURL: ${MOYA_SERVE_URL}
        auth:
          login: { call: token, params: { user: ann, password: pw }, token: $.access_token }
        targets:
          token:
            method: POST
            path: /token
            auth: none
            params: { user: string, password: { type: string, secret: true } }
            task: { parameters: { user: "{user}", password: "{password}" }, encoding: json }
          whoami: { path: /echo/whoami }
        """.utf8), file: "guarded.yaml")
let withLogin = SpecClient(services: [guarded])
// Failures are typed: a library user compares their kind, an open set (`SendFailure.Kind`).
for name in ["guarded.whoami", "guarded.nothing"] {
    do {
        let response = try await withLogin.response(name)
        print(
            "\(name): status \(response.statusCode), sent a token: \(response.request?.headers["Authorization"] != nil)"
        )
    } catch {
        switch error.kind {
        case _ where error.kind.statusCode != nil: print("\(name): status \(error.kind.statusCode ?? 0)")
        case .network(.timedOut): print("\(name): timed out talking to \(error.server ?? "the server")")
        case .login: print("\(name): the login failed: \(error.reason)")
        case .invalidCall: print("invalid call: \(error.reason)")
        default: print(error.message)
        }
    }
}
await withLogin.shutdown()

// One compiled schema, shared by tasks without a lock.
let schema = CompiledSchema(schema: try JSONValue(parsing: #"{"type": "object", "required": ["id"]}"#))
let bodies: [JSONValue] = [.object([("id", .integer(1))]), .object([]), .object([("id", .integer(2))])]
let valid = await withTaskGroup(of: Bool.self) { group in
    for body in bodies { group.addTask { schema.isValid(body) } }
    var count = 0
    for await verdict in group where verdict { count += 1 }
    return count
}
print("valid: \(valid) of \(bodies.count)")

// A flow, answered from the samples.
let offline = SpecClient(services: catalog.services, overrides: CallPolicy.Overrides(stub: .immediate))
for step in await offline.run(flow: "myservice.userLifecycle")?.steps ?? [] { print(step.outcome.word, step.label) }
await client.shutdown()
