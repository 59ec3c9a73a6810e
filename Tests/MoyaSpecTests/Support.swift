import MoyaCompiler
import MoyaCore
import MoyaSpec
import TestSupport

let repositoryRoot = Repository.root
let fixturesDirectory = Repository.fixtures
let specsDirectory = Repository.specs

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
