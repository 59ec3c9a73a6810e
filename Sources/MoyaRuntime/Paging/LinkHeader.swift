/// The links of `Link` header values (RFC 8288): each `<URI-reference>` with its `rel`
/// relation types, read by a small scanner that allows commas and semicolons inside the
/// brackets and in quoted parameters, as servers write them.
enum LinkHeader {
    /// The target of the first link whose `rel` holds `relation`, compared without case, in
    /// the order `values` (one per header line) give them.
    static func target(rel relation: String, in values: [String]) -> String? {
        let wanted = relation.lowercased()
        for value in values {
            for link in links(in: value) where link.relations.contains(wanted) {
                return link.target
            }
        }
        return nil
    }

    /// The links of one header value; a link that cannot be read ends the value.
    static func links(in value: String) -> [(target: String, relations: [String])] {
        var links: [(target: String, relations: [String])] = []
        var rest = Substring(value)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard rest.first == "<", let close = rest.firstIndex(of: ">") else { return links }
            let target = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            var relations: [String] = []
            // Parameters: `; name=value` or `; name="value"`, up to the next comma outside quotes.
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.first == ";" else { break }
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," }
                rest = rest[name.endIndex...]
                var parameter = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                    (parameter, rest) = Self.parameterValue(rest)
                }
                if name.trimmingSpaces.lowercased() == "rel" {
                    relations = parameter.lowercased().split(separator: " ").map(String.init)
                }
            }
            links.append((target, relations))
            guard rest.first == "," else { return links }
        }
    }

    /// A parameter's value, quoted (with `\` escapes) or a token, and what follows it.
    private static func parameterValue(_ text: Substring) -> (String, Substring) {
        guard text.first == "\"" else {
            let token = text.prefix { $0 != ";" && $0 != "," }
            return (String(token.trimmingSpaces), text[token.endIndex...])
        }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (value, text[text.index(after: index)...]) }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { break }
            }
            value.append(text[index])
            index = text.index(after: index)
        }
        return (value, text[text.endIndex...])
    }
}

extension Substring {
    /// The text without the spaces and tabs around it.
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
