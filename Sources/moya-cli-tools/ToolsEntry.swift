import MoyaTools

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli-tools`: `import openapi` and `export openapi`, which moya-cli hands over to
/// (`HelperProgram` in MoyaCLI), since OpenAPIKit and the full Foundation it needs would slow
/// every other command's start if linked into moya-cli. Run as `moya-cli-openapi` (its
/// `argv[0]`, which moya-cli sets), or with `openapi` first. It links no transport and no
/// command-line parser: anything else is a usage error, except the help dump that
/// swift-argument-parser's man-page plugin asks every program of the package for.
@main
enum ToolsEntry {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if name == "moya-cli-openapi" { exit(OpenAPITool.run(arguments)) }
        if arguments.first == "openapi" { exit(OpenAPITool.run(Array(arguments.dropFirst()))) }
        if arguments == ["--experimental-dump-help"] {
            print(
                #"{"serializationVersion":0,"command":{"commandName":"moya-cli-tools","#
                    + #""abstract":"Runs moya-cli's import openapi and export openapi."}}"#)
            exit(0)
        }
        exit(OpenAPITool.run(arguments))
    }
}
