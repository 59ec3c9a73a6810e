import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli-tools`: the commands moya-cli hands over to (`HelperProgram` in MoyaCLI), whose
/// libraries would slow every other command's start if linked into moya-cli. One program for
/// both, so that the Swift runtime and Foundation, with ICU's data, are installed once: the
/// name it is run under, `moya-cli-openapi` or `moya-cli-mcp` (its `argv[0]`, which moya-cli
/// sets), or else its first argument, `openapi` or `mcp`, says which.
@main
enum ToolsEntry {
    @MainActor static func main() async {
        var arguments = CommandLine.arguments
        let name = arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        arguments.removeFirst(min(1, arguments.count))
        var tool = name
        if !["moya-cli-openapi", "moya-cli-mcp"].contains(name), let first = arguments.first {
            tool = "moya-cli-" + first
            arguments.removeFirst()
        }
        switch tool {
        case "moya-cli-openapi": OpenAPITool.main(arguments)
        case "moya-cli-mcp": await MCPTool.main(arguments)
        default:
            OpenAPITool.fail("moya-cli-tools is run by moya-cli: use moya-cli import openapi, export openapi or mcp")
            exit(ExitStatus.usage.rawValue)
        }
    }
}
