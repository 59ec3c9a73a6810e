// The bundled myservice spec sent through MoyaRuntime, as `moya-cli call` and `run` send it.
// Usage: spec-client-example [SPECS]; the `local` environment's server is $MOYA_SERVE_URL.
import MoyaCore
import MoyaRuntime
import MoyaSpec

let compiler = SpecCompiler(environment: .process)
let catalog = try SpecLibrary(searchPaths: [CommandLine.arguments.dropFirst().first ?? "specs"], compiler: compiler)
    .loadAll()
let client = SpecClient(services: catalog.services, environment: "local")

// What `call --dry-run --json` prints, then the call itself.
print(RequestPrinter(try client.prepare("myservice.showUser", ["id": .int(1)]).printable()).json)
let user = await client.send("myservice.showUser", ["id": .int(1)])
print(user.response.map { String(decoding: $0.data, as: UTF8.self) } ?? user.failure ?? "")

// A flow, answered from the samples.
let offline = SpecClient(services: catalog.services, overrides: CallPolicy.Overrides(stub: .immediate))
for step in await offline.run(flow: "myservice.userLifecycle")?.steps ?? [] { print(step.outcome.word, step.label) }
await client.shutdown()
