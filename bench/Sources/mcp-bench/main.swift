// A stubbed tool call against the same call as `moya-cli call --stub immediate` makes, inside
// one process (bench/mcp.sh): N exchanges of the target rendered as `call` renders a body,
// then N tool calls of it through `ToolServer.call` (catalog lookup, input schema, exchange,
// result text, secrets scrubbed). Prints each one's calls per second and their ratio.
//
//     mcp-bench SPEC SERVICE.TARGET [N]
import MoyaCore
import MoyaMCP
import MoyaRuntime
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `text` to stderr and exits with `status`.
func fail(_ text: String, _ status: Int32) -> Never {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: mcp-bench SPEC SERVICE.TARGET [N]", 64) }
let count = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000
let service: ServiceSpec
do {
    service = try SpecCompiler(environment: .process).compile(file: arguments[1])
} catch {
    fail("mcp-bench: \(error)", 65)
}
let name = arguments[2]
let client = SpecClient(
    services: [service], overrides: CallPolicy.Overrides(stub: .immediate), logins: nil)
let server = ToolServer(
    catalog: ToolCatalog(services: [service], exposure: ToolExposure()), client: client,
    options: ToolServer.Options(), audit: nil)
guard let target = service.target(named: String(name.split(separator: ".").last ?? "")) else {
    fail("mcp-bench: no target \(name)", 64)
}

/// Calls per second of `body`, run `count` times after a tenth as warm-up.
func rate(_ body: () async -> Int) async -> Double {
    var sink = 0
    for _ in 0..<(count / 10) { sink &+= await body() }
    let start = ContinuousClock.now
    for _ in 0..<count { sink &+= await body() }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    if sink == -1 { print("") }
    return Double(count) / seconds
}

let direct = await rate {
    let exchange = await client.exchange(service, target, with: CallOptions())
    // What `call` prints: the body, pretty when it is JSON.
    guard let response = exchange.response else { return 0 }
    let text = (try? JSONValue(parsing: response.data))?.serialized(pretty: true) ?? ""
    return text.utf8.count
}
let tool = await rate {
    ((try? await server.call(name, arguments: .object([]))).map { $0.text.utf8.count }) ?? 0
}
print("direct \(Int(direct)) calls/s")
print("tool   \(Int(tool)) calls/s")
print("ratio  \(String(Double(Int(direct / tool * 1000)) / 1000))")
