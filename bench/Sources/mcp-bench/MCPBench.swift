import MoyaBinding
import MoyaCompiler
// A stubbed tool call against the same call as `moya-cli call --stub immediate` makes, inside
// one process (bench/mcp.sh): N exchanges of the target rendered as `call` renders a body,
// then N tool calls of it through `ToolServer.call` (catalog lookup, input schema, exchange,
// result text, secrets scrubbed). Prints each one's calls per second and their ratio.
//
//     mcp-bench SPEC SERVICE.TARGET [N] [direct|tool]
//
// The two loops alternate three times and the better rate of each is kept, so the machine's
// noise falls on both; `direct` or `tool` runs that one alone, for a profiler.
import MoyaCore
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@main
enum MCPBench {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else { fail("usage: mcp-bench SPEC SERVICE.TARGET [N] [direct|tool]", 64) }
        let count = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000
        let service: ServiceSpec
        do {
            service = try SpecCompiler(environment: .process).compile(file: arguments[1])
        } catch {
            fail("mcp-bench: \(error)", 65)
        }
        let name = arguments[2]
        guard let target = service.target(named: String(name.split(separator: ".").last ?? "")) else {
            fail("mcp-bench: no target \(name)", 64)
        }
        let client = SpecClient(services: [service], overrides: CallPolicy.Overrides(stub: .immediate), logins: nil)
        let server = ToolServer(client: client, exposure: ToolExposure(), options: ToolServer.Options(), audit: nil)

        let direct: @Sendable () async -> Int = {
            let exchange = await client.exchange(service, target, with: CallOptions())
            // What `call` prints on a terminal: the body, pretty when it is JSON.
            guard let response = exchange.response else { return 0 }
            return ((try? JSONValue(parsing: response.data))?.serialized(pretty: true) ?? "").utf8.count
        }
        let tool: @Sendable () async -> Int = {
            ((try? await server.call(name, arguments: .object([]))).map { $0.text.utf8.count }) ?? 0
        }
        if arguments.count > 4 {
            let alone = await rate(arguments[4] == "tool" ? tool : direct, count)
            print("\(arguments[4]) \(Int(alone)) calls/s")
            return
        }
        var (directRate, toolRate) = (0.0, 0.0)
        for _ in 0..<3 {
            directRate = max(directRate, await rate(direct, count))
            toolRate = max(toolRate, await rate(tool, count))
        }
        print("direct \(Int(directRate)) calls/s")
        print("tool   \(Int(toolRate)) calls/s")
        print("ratio  \(Double(Int(directRate / toolRate * 1000)) / 1000)")
    }

    /// Calls per second of `body`, run `count` times after a tenth as warm-up.
    static func rate(_ body: () async -> Int, _ count: Int) async -> Double {
        var sink = 0
        for _ in 0..<(count / 10) { sink &+= await body() }
        let start = ContinuousClock.now
        for _ in 0..<count { sink &+= await body() }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        if sink == -1 { print("") }
        return Double(count) / seconds
    }

    /// Writes `text` to stderr and exits with `status`.
    static func fail(_ text: String, _ status: Int32) -> Never {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }
}
