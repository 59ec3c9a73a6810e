import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Serves the test server's routes on 127.0.0.1:PORT for the call benchmark.
@main
struct BenchServer {
    static func main() throws {
        let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 18080 : 18080
        let server = try TestServer(port: port)
        print("listening on \(server.baseURL)")
        try server.wait()
    }
}
