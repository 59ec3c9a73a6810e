import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The names `import openapi` gives: targets, params, samples and environment variables,
/// each valid in a spec, and the JSON pointers its warnings name.
enum Names {
    /// The words of `text`: runs of ASCII letters and digits, split where a lowercase letter
    /// meets an uppercase one, as the Swift generator splits names.
    static func words(_ text: String) -> [String] {
        let spaced = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : " " })
        return NameWords.split(spaced)
    }

    /// `list pets` and `list_pets` as `listPets`; a name that would not start with a letter
    /// gets `fallback`.
    static func lowerCamel(_ text: String, fallback: String) -> String {
        let parts = words(text)
        guard let first = parts.first, first.first?.isLetter == true else { return fallback }
        let rest = parts.dropFirst().map { upperCamel($0) }
        let head = first == first.uppercased() && first.count > 1 ? first.lowercased() : lowerFirst(first)
        return ([head] + rest).joined()
    }

    /// A service's name from a document's title: its words up to a joining word (`with`,
    /// `for`, `from`, …), less those that any API's title has (`API`, `REST`, `OpenAPI`,
    /// `Swagger`, `Web`, `Platform`, `beta`, a version), at most three of them:
    /// `Spotify Web API with fixes and improvements from sonallux` is `spotify`, `Swagger
    /// Petstore - OpenAPI 3.0` is `petstore`, `Twilio - Lookups` is `twilioLookups`. Nil when
    /// no word is left.
    static func service(title: String) -> String? {
        var kept: [String] = []
        for word in title.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
            let lower = word.lowercased()
            if joiningWords.contains(lower) { break }
            let isVersion =
                lower.allSatisfy(\.isNumber) || (lower.first == "v" && lower.dropFirst().allSatisfy(\.isNumber))
            if genericWords.contains(lower) || isVersion { continue }
            kept.append(String(word))
            if kept.count == 3 { break }
        }
        guard !kept.isEmpty else { return nil }
        let name = lowerCamel(kept.joined(separator: " "), fallback: "")
        return name.isEmpty ? nil : name
    }

    /// A service's name from a server's host: its first label that is not `api` or `www`, as
    /// `spotify` for `api.spotify.com`; nil for an address.
    static func service(host: String) -> String? {
        let labels = host.split(separator: ".").map { $0.lowercased() }
        guard labels.count > 1, !labels.allSatisfy({ $0.allSatisfy { $0.isNumber } }) else { return nil }
        guard let label = labels.dropLast().first(where: { !["api", "www", "apis"].contains($0) }) else { return nil }
        let name = lowerCamel(label, fallback: "")
        return name.isEmpty ? nil : name
    }

    static let joiningWords: Set<String> = ["with", "for", "from", "by", "and", "of", "to", "on", "in", "via"]
    static let genericWords: Set<String> = [
        "api", "apis", "rest", "restful", "http", "openapi", "swagger", "web", "platform", "service", "services",
        "the", "a", "an", "beta", "alpha", "spec", "specification",
    ]

    /// `pets` as `Pets`, `{petId}` as `PetId`.
    static func upperCamel(_ text: String) -> String {
        words(text).map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined()
    }

    private static func lowerFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    /// A param name the spec accepts: letters, digits, `_` and `-`, not starting with a
    /// digit or `-`. `X-Request-ID` stays as it is; `page[size]` is `page_size`.
    static func param(_ name: String) -> String {
        var output = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber || character == "_" || character == "-" {
                output.append(character)
            } else if output.last != "_" {
                output.append("_")
            }
        }
        while output.last == "_" || output.last == "-" { output.removeLast() }
        if let first = output.first, !(first.isLetter || first == "_") { output = "p_" + output }
        return output.isEmpty ? "param" : output
    }

    /// `name`, or `name2`, `name3`… when it is taken.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var next: [String: Int] = [:]
        return unique(name, in: &used, next: &next)
    }

    /// `unique(_:in:)` for many names of one stem, numbered from `next[name]`, the number
    /// after the last one taken: 10,000 hoisted `moya_x` take linear time, not quadratic.
    static func unique(_ name: String, in used: inout Set<String>, next: inout [String: Int]) -> String {
        var candidate = name
        var number = next[name] ?? 2
        if number > 2 { candidate = "\(name)\(number)" }
        while used.contains(candidate) {
            candidate = "\(name)\(number)"
            number += 1
        }
        next[name] = number
        used.insert(candidate)
        return candidate
    }

    /// An environment variable for a service's value: `PETSTORE_API_KEY`.
    static func environment(_ service: String, _ name: String) -> String {
        (words(service) + words(name)).map { $0.uppercased() }.joined(separator: "_")
    }

    /// A file's name without its directories.
    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A file's name without its directories and extension.
    static func stem(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return lowerCamel(String(name[..<dot]), fallback: "service")
    }

    /// URL text from a document with `$`, braces, spaces, controls and the other characters a
    /// URL may not hold raw percent-encoded (RFC 3986).
    static func urlText(_ text: Substring) -> String {
        PercentEncoding.encode(String(text)) { byte in
            (0x21..<0x7F).contains(byte) && !"\"<>\\^`{|}$".utf8.contains(byte)
        }
    }

    /// Text on one line, runs of white space as one space.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// `target`'s path relative to the folder `directory`, both relative to the working
    /// directory or absolute: `../docs/api.yaml`.
    static func relativePath(of target: String, from directory: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        func parts(_ path: String) -> [Substring] {
            var resolved: [Substring] = []
            for part in (path.hasPrefix("/") ? path : current + "/" + path).split(separator: "/") where part != "." {
                if part == ".." { _ = resolved.popLast() } else { resolved.append(part) }
            }
            return resolved
        }
        let to = parts(target)
        let from = parts(directory)
        let common = zip(to, from).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - common) + to.dropFirst(common).map(String.init))
            .joined(separator: "/")
    }

    /// An RFC 6901 JSON pointer: `~` as `~0`, `/` as `~1`.
    static func pointer(_ parts: [String]) -> String {
        "/" + parts.map { $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined(separator: "/")
    }
}
