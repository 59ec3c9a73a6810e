/// An ordered list of HTTP header fields whose names compare case-insensitively.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order, with their names as given.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from a dictionary, sorted by name for a stable order.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Creates a header list from fields in order.
    public init(fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// Creates a header list from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        get {
            fields.first { Self.sameName($0.name, name) }?.value
        }
        set {
            if let newValue {
                update(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Sets `name` to `value`, replacing every field of that name in the place of the first.
    public mutating func update(name: String, value: String) {
        guard let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
            fields.append((name: name, value: value))
            return
        }
        fields.removeAll { Self.sameName($0.name, name) }
        fields.insert((name: name, value: value), at: index)
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Whether two field names are the same, ASCII letters compared case-insensitively as
    /// RFC 9110 says, without making lowercased copies: every header lookup asks.
    public static func sameName(_ one: String, _ other: String) -> Bool {
        guard one.utf8.count == other.utf8.count else { return false }
        return zip(one.utf8, other.utf8).allSatisfy { a, b in
            a == b || (a ^ b == 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// Whether `name` is a valid field name: an RFC 9110 token.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                PercentEncoding.isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
            }
    }

    /// Whether `value` may be sent as a field value: no line breaks or NUL.
    public static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }

    /// The values of every field named `name`, in order, such as a response's `Set-Cookie`s.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// The fields as a dictionary; later fields of the same name win.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields { result[field.name] = field.value }
        return result
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
