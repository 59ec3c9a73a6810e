import MoyaCompiler
import MoyaCore
import MoyaSpec
import TestSupport

let fixturesDirectory = Repository.fixtures

/// Compiles YAML text as if read from `file`.
func compile(_ text: String, file: String = "specs/test.yaml") throws(SpecError) -> ServiceSpec {
    try SpecCompiler(environment: Environment([:])).compile(Array(text.utf8), file: file)
}
