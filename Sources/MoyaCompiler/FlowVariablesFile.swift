import MoyaHTTP
import MoyaSpec
import MoyaYAML

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Variables given to `run`: a `--vars` YAML mapping, and `--var NAME=VALUE` scalars, typed
/// as a spec's plain scalars are.
public enum FlowVariablesFile {
    /// The mapping in the YAML file at `path`, in order.
    public static func read(_ path: String) throws(FlowError) -> [(name: String, value: JSONValue)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw FlowError("cannot read the file") }
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(Array(data))
        } catch {
            throw FlowError(error.message)
        }
        guard let root else { return [] }
        guard case .mapping(let pairs) = root.content else {
            throw FlowError("\(root.mark.line):\(root.mark.column): expected a mapping of variable names to values")
        }
        var variables: [(name: String, value: JSONValue)] = []
        for pair in pairs {
            guard let name = pair.key.scalar, ParamSpec.isValidParamName(name) else {
                throw FlowError("\(pair.key.mark.line):\(pair.key.mark.column): a variable name must be a name")
            }
            variables.append((name, pair.value.jsonValue))
        }
        return variables
    }

    /// A command-line value: `7` is an integer, `true` a boolean, anything else text.
    public static func scalar(_ text: String) -> JSONValue {
        if let bool = YAMLScalar.parseBool(text) { return .bool(bool) }
        if let integer = YAMLScalar.parseInteger(text) { return .integer(integer) }
        if let number = YAMLScalar.parseFloat(text) { return .number(number) }
        return .string(text)
    }
}
