/// `moya-cli-tools`: `import openapi` and `export openapi`, which moya-cli hands over to
/// (`HelperProgram` in MoyaCLI), since OpenAPIKit and the full Foundation it needs would slow
/// every other command's start if linked into moya-cli. Run as `moya-cli-openapi` (its
/// `argv[0]`, which moya-cli sets), or with `openapi` first.
@main
enum ToolsEntry {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if name != "moya-cli-openapi", arguments.first == "openapi" { arguments.removeFirst() }
        OpenAPITool.main(arguments)
    }
}
