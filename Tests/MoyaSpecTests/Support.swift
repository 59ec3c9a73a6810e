import MoyaCore
import MoyaSpec

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 {
        if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
    }
    return path
}()

let fixturesDirectory = repositoryRoot + "/Tests/Fixtures"
let specsDirectory = repositoryRoot + "/specs"

/// Compiles YAML text as if read from `file`.
func compile(_ text: String, file: String = "specs/test.yaml", environment: [String: String] = [:]) throws(SpecError)
    -> ServiceSpec
{
    try SpecCompiler(environment: Environment(environment)).compile(Array(text.utf8), file: file)
}

/// The diagnostics for YAML text, without the file name.
func problems(_ text: String, environment: [String: String] = [:]) -> [String] {
    do {
        _ = try compile(text, environment: environment)
        return []
    } catch {
        return error.diagnostics.map { "\($0.mark.line):\($0.mark.column): \($0.keyPath): \($0.message)" }
    }
}
