/// `moya-cli-tools`: the commands moya-cli hands over to (`HelperProgram` in MoyaCLI), whose
/// libraries would slow every other command's start if linked into moya-cli. One program for
/// both, so that the Swift runtime and Foundation, with ICU's data, are installed once. Run as
/// `moya-cli-openapi` (its `argv[0]`, which moya-cli sets), or with `openapi` first, it does
/// `import openapi` and `export openapi`; otherwise it is moya-cli's own command line with
/// `mcp` served in this process.
@main
enum ToolsEntry {
    @MainActor static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if name == "moya-cli-openapi" { OpenAPITool.main(arguments) }
        if name != "moya-cli-mcp", arguments.first == "openapi" { OpenAPITool.main(Array(arguments.dropFirst())) }
        await MCPTool.main(arguments)
    }
}
