import ArgumentParser
import MoyaCommandSupport
import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a target's params from the words after `SERVICE.TARGET`.
enum CallArguments {
    /// Typed values by param name, from `--name value`, `--name=value` and `name=value`.
    /// A bool param given as a bare `--name` is true.
    static func parse(_ words: [String], for target: TargetSpec) throws -> [String: ParamValue] {
        var texts: [String: [String]] = [:]
        var order: [String] = []
        var dashed: Set<String> = []
        func add(_ name: String, _ value: String, dashes: Bool = true) {
            if texts[name] == nil { order.append(name) }
            texts[name, default: []].append(value)
            if dashes { dashed.insert(name) }
        }
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word.hasPrefix("--"), word.count > 2 {
                let body = word.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    add(String(body[..<equals]), String(body[body.index(after: equals)...]))
                    continue
                }
                let name = String(body)
                let isBool = target.param(named: name)?.elementType == .bool
                let next = index < words.count ? words[index] : nil
                if isBool, next == nil || next?.hasPrefix("--") == true || !(next.map(isBoolWord) ?? false) {
                    add(name, "true")
                    continue
                }
                guard let next else {
                    throw UsageError("--\(name) needs a value")
                }
                add(name, next)
                index += 1
            } else if let equals = word.firstIndex(of: "="), equals != word.startIndex {
                add(String(word[..<equals]), String(word[word.index(after: equals)...]), dashes: false)
            } else {
                throw UsageError(
                    "unexpected argument '\(word)'; give params as --NAME VALUE or NAME=VALUE")
            }
        }
        var values: [String: ParamValue] = [:]
        for name in order {
            guard let param = target.param(named: name) else {
                let names = target.params.map(\.name)
                let known = names.isEmpty ? "it takes no params" : "it takes \(names.joined(separator: ", "))"
                // `--timout` may be a param or an option mistyped: the nearest of both is offered.
                if dashed.contains(name), let nearest = Suggestion.nearest(to: name, in: names + optionNames) {
                    throw UsageError(
                        "\(target.name) has no param or option '--\(name)'; did you mean --\(nearest)?")
                }
                throw UsageError(
                    "\(target.name) has no param '\(name)'" + hintOrList(name, names, known))
            }
            do {
                values[name] = try param.value(from: texts[name] ?? [])
            } catch {
                throw UsageError(error.description)
            }
        }
        return values
    }

    /// The long names of `call`'s own options, from the argument parser's description of
    /// the command; read only when a word is neither a param nor an option.
    static var optionNames: [String] {
        guard let dump = try? JSONValue(parsing: Data(CallCommand._dumpHelp().utf8)),
            case .array(let arguments)? = dump.value(atKeyPath: "command.arguments")
        else { return [] }
        return arguments.flatMap { argument -> [String] in
            guard case .array(let names)? = argument.value(atKeyPath: "names") else { return [] }
            return names.compactMap { name in
                guard name.value(atKeyPath: "kind") == .string("long"),
                    case .string(let text)? = name.value(atKeyPath: "name")
                else { return nil }
                return text
            }
        }
    }

    /// The target's params whose names are also `call`'s options (or `--help` and
    /// `--version`), which `--NAME VALUE` cannot give: `NAME=VALUE` can.
    static func shadowedParams(of target: TargetSpec) -> [ParamSpec] {
        target.params.filter { ownNames.contains($0.name) }
    }

    /// `call`'s long option names with `help` and `version`, read once: `validate` asks for
    /// every target of a spec.
    static let ownNames = Set(optionNames + ["help", "version", "record"])

    /// Refuses a call that leaves out a required param whose name is also an option: the
    /// user's `--NAME VALUE` went to the option, and the message says how to give the param.
    static func checkShadowed(_ values: [String: ParamValue], for target: TargetSpec) throws {
        guard target.params.contains(where: { $0.isRequired && values[$0.name] == nil }) else { return }
        for param in shadowedParams(of: target) where param.isRequired && values[param.name] == nil {
            throw UsageError(
                "\(target.name) needs param '\(param.name)'; --\(param.name) is moya-cli's own option, "
                    + "so give the param as \(param.name)=VALUE")
        }
    }

    private static func hintOrList(_ name: String, _ names: [String], _ known: String) -> String {
        let hint = Suggestion.hint(for: name, in: names)
        return hint.isEmpty ? "; " + known : hint
    }

    private static func isBoolWord(_ word: String) -> Bool {
        ["true", "false", "yes", "no", "1", "0"].contains(word.lowercased())
    }

    /// `-H 'Name: value'` headers, refusing line breaks and malformed names.
    static func headers(_ words: [String]) throws -> HTTPHeaders {
        var headers = HTTPHeaders()
        for word in words {
            guard HTTPHeaders.isValidValue(word) else {
                throw UsageError("a header may not contain a line break")
            }
            guard let colon = word.firstIndex(of: ":") else {
                throw UsageError("-H takes 'Name: value', not '\(word)'")
            }
            let name = String(word[..<colon])
            var value = word[word.index(after: colon)...]
            while value.first == " " || value.first == "\t" { value = value.dropFirst() }
            guard HTTPHeaders.isValidName(name) else {
                throw UsageError("'\(name)' is not a valid header name")
            }
            headers.update(name: name, value: String(value))
        }
        return headers
    }
}
