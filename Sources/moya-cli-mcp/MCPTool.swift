import MoyaCLI
import MoyaMCP
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli mcp`, which moya-cli hands over to this program (see `HelperProgram` in MoyaCLI).
///
/// The MCP SDK brings FoundationNetworking, and with it libcurl: linked into moya-cli it would
/// load at every command's start (bench/RESULTS.md). This program reads the same command line
/// with the same parser as moya-cli, then serves MCP on stdin and stdout.
@main
enum MCPTool {
    @MainActor static func main() async {
        MCPHandOver.server = { invocation in try await serve(invocation) }
        let status = await MoyaCLI.run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }

    /// Builds the catalog and the server, and serves until stdin closes or a signal comes.
    static func serve(_ invocation: MCPInvocation) async throws {
        let services = invocation.client.services
        let exposure = ToolExposure(
            allowsWrites: invocation.allowsWrites, allowsDeletes: invocation.allowsDeletes, only: invocation.only)
        let catalog = ToolCatalog(services: services, exposure: exposure, allowsFilesIn: invocation.allowsFilesIn)
        if let pattern = invocation.only.first(where: { pattern in
            !catalog.all.contains { fnmatch(pattern, $0.fullName, 0) == 0 }
        }) {
            throw MCPFailure(
                message: "--only '\(pattern)' matches no target or flow; see moya-cli list", exitStatus: .usage)
        }
        let audit: AuditLog?
        do {
            audit = try invocation.audit.map { path throws(AuditLog.OpenError) in try AuditLog(path: path) }
        } catch {
            throw MCPFailure(message: error.description, exitStatus: .cannotWrite)
        }
        var options = ToolServer.Options()
        options.dynamic = invocation.dynamic
        options.maxResultBytes = invocation.maxResultBytes
        options.allowsFilesIn = invocation.allowsFilesIn
        options.stubbed = invocation.stubbed
        let server = ToolServer(catalog: catalog, client: invocation.client, options: options, audit: audit)

        let left = catalog.all.count - catalog.exposed.count
        invocation.log(
            "moya-cli: mcp: \(catalog.exposed.count) of \(catalog.all.count) targets and flows as tools on stdio"
                + (left > 0 ? " (\(left) left out; -h says which flags add them)" : ""))
        if invocation.listsDynamicHint, catalog.exposed.count > 64 {
            invocation.log(
                "moya-cli: hint: \(catalog.exposed.count) tools is more than many clients take; "
                    + "--tools dynamic offers three that search, describe and call them")
        }

        let stopped: Int32? = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                do {
                    try await server.run(on: LineTransport())
                } catch {
                    invocation.log("moya-cli: mcp: \(error)")
                }
                return nil
            }
            group.addTask { await invocation.nextSignal() }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let stopped { invocation.log("moya-cli: \(MCPInvocation.name(of: stopped)): stopping") }
    }
}

/// A problem that ends `mcp` before it serves, with its exit status.
struct MCPFailure: Problem {
    var message: String
    var exitStatus: ExitStatus
}
