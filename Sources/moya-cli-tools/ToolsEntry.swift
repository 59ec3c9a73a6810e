import MoyaCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli-tools`: `import openapi` and `export openapi`, which moya-cli hands over to
/// (`HelperProgram` in MoyaCLI), since OpenAPIKit and the full Foundation it needs would slow
/// every other command's start if linked into moya-cli. Run as `moya-cli-openapi` (its
/// `argv[0]`, which moya-cli sets), or with `openapi` first; otherwise it is moya-cli's own
/// command line (which the man page's generator asks for its help).
@main
enum ToolsEntry {
    @MainActor static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if name == "moya-cli-openapi" { OpenAPITool.main(arguments) }
        if arguments.first == "openapi" { OpenAPITool.main(Array(arguments.dropFirst())) }
        exit(await MoyaCLI.run(arguments))
    }
}
