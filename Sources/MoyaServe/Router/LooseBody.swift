import MoyaHTTP
import MoyaSchema

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request body that carries only text (a form, an XML document), read as the JSON value
/// the target's `requestSchema:` describes. Each piece of text is read as text first; where
/// the schema wants another type there (`RouteContract.requestErrors`), it is read next as the
/// number or boolean it spells, then as a list of one. An element with children is an object,
/// else a list of its one kind of child (OpenAPI's wrapped XML array), else a list of one.
/// A key or element that comes more than once is a list, and one the schema requires that
/// does not come at all may be an empty list, which neither a form nor XML can tell from
/// nothing.
struct LooseBody: Sendable {
    /// One value: text (as each of its readings, made once), named members (each one or more
    /// values, by index in `shapes`), or an empty list put where a required member is missing.
    enum Shape: Sendable {
        case text(readings: [JSONValue])
        case members([(key: String, items: [Int])])
        case emptyList
    }

    /// The most readings a value has, and so the most rounds of reading again.
    static let readings = 4
    /// How deep an XML body may nest.
    static let depthLimit = 64

    private var shapes: [Shape] = []
    private var choices: [Int] = []
    /// Where each value was put by the last `value()`, as a schema error names it.
    private var paths: [String] = []
    private var root = 0
    /// The empty lists put in, by the members value that holds them, and each place one was
    /// put and taken out again.
    private var emptyLists: [(parent: Int, key: String, node: Int)] = []
    private var refused: Set<String> = []

    /// A form's fields, as one object.
    init(form pairs: [(key: String, value: String)]) {
        var members = Members()
        for pair in pairs { members.append(add(text: pair.value), to: pair.key) }
        root = add(.members(members.list))
    }

    /// Members as they are read: each key's values in one entry, in the order keys first
    /// came, found by key in constant time, so that a body of many keys is read in linear time.
    struct Members {
        private(set) var list: [(key: String, items: [Int])] = []
        private var index: [String: Int] = [:]

        /// `node` as a value of `key`: a new member, or the next item of the one there is.
        mutating func append(_ node: Int, to key: String) {
            if let at = index[key] {
                list[at].items.append(node)
            } else {
                index[key] = list.count
                list.append((key, [node]))
            }
        }
    }

    private mutating func add(text: String) -> Int { add(.text(readings: Self.readings(of: text))) }

    private mutating func add(_ shape: Shape) -> Int {
        shapes.append(shape)
        choices.append(0)
        paths.append("")
        return shapes.count - 1
    }

    /// The body as its current readings make it.
    mutating func value() -> JSONValue { build(root, at: []) }

    /// Moves each value with a wrong type at its place (or at its first item's) to its next
    /// reading; false when none moves.
    mutating func advance(where wrong: Set<String>) -> Bool {
        var moved = false
        for node in shapes.indices where choices[node] + 1 < options(node) {
            if wrong.contains(paths[node]) || wrong.contains(paths[node] + "[0]") {
                choices[node] += 1
                moved = true
            }
        }
        return moved
    }

    /// Puts an empty list where each required member is missing (by the place of the value
    /// that misses it); false when none is put.
    mutating func addEmptyLists(for missing: [(path: String, key: String)]) -> Bool {
        guard !missing.isEmpty else { return false }
        var added = false
        // The values by their places, found once: a body of many objects misses as many keys.
        var byPath: [String: [Int]] = [:]
        for node in shapes.indices { byPath[paths[node], default: []].append(node) }
        for (path, key) in missing where !refused.contains(path + "\u{0}" + key) {
            let wrapped = path.hasSuffix("[0]") ? byPath[String(path.dropLast(3))] ?? [] : []
            for parent in (byPath[path] ?? []) + wrapped {
                guard case .members(var members) = shapes[parent], !members.contains(where: { $0.key == key })
                else { continue }
                let node = add(.emptyList)
                members.append((key, [node]))
                shapes[parent] = .members(members)
                emptyLists.append((parent, key, node))
                added = true
            }
        }
        return added
    }

    /// Takes out each empty list put in whose place has a wrong type: the member is not a
    /// list, so it is missing after all. False when none is taken out.
    mutating func takeOutEmptyLists(where wrong: Set<String>) -> Bool {
        let (wrongLists, kept) = (emptyLists.filter { wrong.contains(paths[$0.node]) }, emptyLists)
        guard !wrongLists.isEmpty else { return false }
        emptyLists = kept.filter { !wrong.contains(paths[$0.node]) }
        for list in wrongLists {
            guard case .members(let members) = shapes[list.parent] else { continue }
            shapes[list.parent] = .members(members.filter { $0.key != list.key })
            refused.insert(paths[list.parent] + "\u{0}" + list.key)
        }
        return true
    }

    private func options(_ node: Int) -> Int {
        switch shapes[node] {
        case .text(let readings): readings.count
        case .members(let members): members.count == 1 ? 3 : 2
        case .emptyList: 1
        }
    }

    /// Text as text, as the scalar it spells, and as a list of either.
    private static func readings(of text: String) -> [JSONValue] {
        let scalar: JSONValue? =
            switch try? JSONValue(parsing: Data(text.utf8)) {
            case .bool(let bool)?: .bool(bool)
            case .integer(let int)?: .integer(int)
            case .number(let number)?: .number(number)
            default: nil
            }
        // No text may also be an empty list (`<tags/>`, `ids=`) or an empty object (`<order/>`).
        if text.isEmpty { return [.string(text), .array([.string(text)]), .array([]), .object([])] }
        guard let scalar else { return [.string(text), .array([.string(text)])] }
        return [.string(text), scalar, .array([.string(text)]), .array([scalar])]
    }

    /// The depth is the body's: one level for a form, `depthLimit` for XML.
    private mutating func build(_ node: Int, at steps: [SchemaError.Step]) -> JSONValue {
        paths[node] = SchemaError.path(steps)
        switch shapes[node] {
        case .text(let readings):
            return readings[choices[node]]
        case .emptyList:
            return .array([])
        case .members(let members):
            let unwrapped = members.count == 1 && choices[node] == 1
            if unwrapped {
                return .array(members[0].items.enumerated().map { build($1, at: steps + [.index($0)]) })
            }
            let wrapped = choices[node] > 0
            let at = wrapped ? steps + [.index(0)] : steps
            let object = JSONValue.object(
                members.map { member in
                    let place = at + [.key(member.key)]
                    guard member.items.count != 1 else { return (member.key, build(member.items[0], at: place)) }
                    return (member.key, .array(member.items.enumerated().map { build($1, at: place + [.index($0)]) }))
                })
            return wrapped ? .array([object]) : object
        }
    }
}

// MARK: - XML

extension LooseBody {
    /// Why an XML body cannot be read.
    struct Unreadable: Error {
        var message: String
    }

    /// An XML document's root element: its attributes and child elements are its members
    /// (namespace prefixes dropped, `xmlns` left out), and an element without children is its
    /// text. Comments, processing instructions and a DOCTYPE without an internal subset are
    /// skipped; the five named entities and character references are read. Nothing else of
    /// XML (entities of a DTD) is.
    init(xml bytes: [UInt8]) throws(Unreadable) {
        var reader = XMLReader(bytes: bytes)
        var stack: [(name: String, members: Members, text: [UInt8])] = []
        var top: Int?
        func close(_ frame: (name: String, members: Members, text: [UInt8])) throws(Unreadable) {
            // An element without attributes or children is its text; otherwise its text,
            // which OpenAPI's XML has no member for, is not read.
            let node =
                frame.members.list.isEmpty
                ? add(text: XMLReader.decode(frame.text))
                : add(
                    .members(
                        frame.members.list.map { member in
                            (member.key.hasPrefix("@") ? String(member.key.dropFirst()) : member.key, member.items)
                        }))
            guard !stack.isEmpty else {
                top = node
                return
            }
            stack[stack.count - 1].members.append(node, to: frame.name)
        }
        while let token = try reader.next() {
            switch token {
            case .text(let text):
                if stack.isEmpty {
                    guard text.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                        throw Unreadable(message: "text outside the root element")
                    }
                } else {
                    stack[stack.count - 1].text += text
                }
            case .open(let name, let attributes, let selfClosing):
                guard top == nil else { throw Unreadable(message: "a second root element <\(name)>") }
                guard stack.count < Self.depthLimit else {
                    throw Unreadable(message: "elements nest deeper than \(Self.depthLimit) levels")
                }
                var members = Members()
                for attribute in attributes {
                    // Marked, so that a child element of the same name is another member.
                    members.append(add(text: attribute.value), to: "@" + attribute.name)
                }
                stack.append((name, members, []))
                if selfClosing, let frame = stack.popLast() { try close(frame) }
            case .close(let name):
                guard let frame = stack.popLast(), frame.name == name else {
                    throw Unreadable(message: "</\(name)> closes no open element of that name")
                }
                try close(frame)
            }
        }
        guard stack.isEmpty, let top else { throw Unreadable(message: "the document ends inside an element") }
        root = top
    }
}

/// The tokens of an XML document, read from its bytes.
private struct XMLReader {
    enum Token {
        case text([UInt8])
        case open(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case close(String)
    }

    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private func starts(with text: String) -> Bool {
        let prefix = Array(text.utf8)
        return bytes.count - at >= prefix.count && bytes[at..<at + prefix.count].elementsEqual(prefix)
    }

    /// Moves past `end`, which must come.
    private mutating func skip(past end: String) throws(LooseBody.Unreadable) -> ArraySlice<UInt8> {
        let marker = Array(end.utf8)
        let start = at
        while at + marker.count <= bytes.count {
            if bytes[at..<at + marker.count].elementsEqual(marker) {
                defer { at += marker.count }
                return bytes[start..<at]
            }
            at += 1
        }
        throw LooseBody.Unreadable(message: "the document ends before \(end)")
    }

    mutating func next() throws(LooseBody.Unreadable) -> Token? {
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "<") else {
                let start = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
                return .text(Array(bytes[start..<at]))
            }
            if starts(with: "<?") {
                _ = try skip(past: "?>")
            } else if starts(with: "<!--") {
                _ = try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                at += 9
                // CDATA is text as it is: its `&` is no reference, so it is escaped for `decode`.
                let text = try skip(past: "]]>").flatMap { $0 == UInt8(ascii: "&") ? Array("&amp;".utf8) : [$0] }
                return .text(text)
            } else if starts(with: "<!") {
                let declaration = try skip(past: ">")
                if declaration.contains(UInt8(ascii: "[")) {
                    throw LooseBody.Unreadable(message: "a DOCTYPE with an internal subset, which serve does not read")
                }
            } else if starts(with: "</") {
                at += 2
                let name = try skip(past: ">")
                return .close(Self.localName(name))
            } else {
                at += 1
                return try openTag()
            }
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }

    private mutating func openTag() throws(LooseBody.Unreadable) -> Token {
        let start = at
        while at < bytes.count, !Self.isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">"),
            bytes[at] != UInt8(ascii: "/")
        {
            at += 1
        }
        let name = Self.localName(bytes[start..<at])
        guard !name.isEmpty else { throw LooseBody.Unreadable(message: "a tag without a name") }
        var attributes: [(name: String, value: String)] = []
        while at < bytes.count {
            let byte = bytes[at]
            if Self.isSpace(byte) {
                at += 1
            } else if byte == UInt8(ascii: ">") {
                at += 1
                return .open(name: name, attributes: attributes, selfClosing: false)
            } else if starts(with: "/>") {
                at += 2
                return .open(name: name, attributes: attributes, selfClosing: true)
            } else {
                let nameStart = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "="), !Self.isSpace(bytes[at]),
                    bytes[at] != UInt8(ascii: ">")
                {
                    at += 1
                }
                let attribute = String(decoding: bytes[nameStart..<at], as: UTF8.self)
                while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
                    throw LooseBody.Unreadable(message: "attribute \(attribute) of <\(name)> has no value")
                }
                at += 1
                while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                    throw LooseBody.Unreadable(message: "attribute \(attribute) of <\(name)> is not quoted")
                }
                let quote = String(UnicodeScalar(bytes[at]))
                at += 1
                let value = Self.decode(Array(try skip(past: quote)))
                if attribute != "xmlns", !attribute.hasPrefix("xmlns:") {
                    attributes.append((Self.localName(attribute.utf8[...]), value))
                }
            }
        }
        throw LooseBody.Unreadable(message: "the document ends inside <\(name)>")
    }

    /// A name without its namespace prefix (or the spaces a closing tag may have).
    private static func localName(_ bytes: some Collection<UInt8>) -> String {
        // The part after a namespace prefix, found in the bytes (`:` is ASCII).
        let kept = bytes.filter { !isSpace($0) }
        guard let colon = kept.firstIndex(of: UInt8(ascii: ":")) else { return String(decoding: kept, as: UTF8.self) }
        let after = kept[(colon + 1)...]
        let before = kept[..<colon]
        return String(decoding: !after.isEmpty ? after : !before.isEmpty ? before : kept[...], as: UTF8.self)
    }

    /// Text with its entity and character references read.
    static func decode(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        // Looked for in the bytes: `&` is ASCII, and text without one is read as it is.
        guard bytes.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"][String(name)]
            let number: UInt32? =
                name.hasPrefix("#x")
                ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
            if let named {
                result += named
            } else if let number, let scalar = Unicode.Scalar(number) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
