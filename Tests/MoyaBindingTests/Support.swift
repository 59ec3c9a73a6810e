import MoyaCompiler
import MoyaCore
import MoyaSpec
import TestSupport

let specsDirectory = Repository.specs

/// Compiles YAML text as if read from `file`, for binding it.
func compile(_ text: String, file: String = "specs/test.yaml", environment: [String: String] = [:]) throws(SpecError)
    -> ServiceSpec
{
    try SpecCompiler(environment: Environment(environment)).compile(Array(text.utf8), file: file)
}
