/// What is secret in one call, exchange or run: the values bound secret, and the header names
/// whose values are secret whole. Made where values are bound (the resolver, a login, a flow's
/// captures, `-H`), and grown only here, by `adding`, each time as a new set: a token a login
/// returned, credentials seen in an exchange, a capture marked secret. Every `Redactor` is made
/// from one, and a set, once made, never changes under the redactor that holds it.
public struct SecretSet: Sendable, Hashable {
    /// The secret values, however short; the empty string is never one.
    public private(set) var values: Set<String>
    /// Header names, lowercased, whose values are hidden whole.
    public private(set) var headers: Set<String>

    /// The set of `values` and `headers`.
    public init(values: some Sequence<String> = [String](), headers: some Sequence<String> = [String]()) {
        self.values = Set(values.lazy.filter { !$0.isEmpty })
        self.headers = Set(headers.lazy.map { $0.lowercased() })
    }

    /// Nothing secret.
    public static let none = SecretSet()

    /// Adds `values` and `headers`, as the binding stage does while it binds a call.
    public mutating func add(_ values: some Sequence<String>, headers: some Sequence<String> = [String]()) {
        for value in values where !value.isEmpty { self.values.insert(value) }
        for header in headers { self.headers.insert(header.lowercased()) }
    }

    /// Adds everything `other` holds.
    public mutating func add(_ other: SecretSet) {
        values.formUnion(other.values)
        headers.formUnion(other.headers)
    }

    /// This set with `values` and `headers` too.
    public func adding(_ values: some Sequence<String>, headers: some Sequence<String> = [String]()) -> SecretSet {
        var grown = self
        grown.add(values, headers: headers)
        return grown
    }

    /// This set with everything `other` holds.
    public func adding(_ other: SecretSet) -> SecretSet {
        guard !other.isSubset(of: self) else { return self }
        var grown = self
        grown.add(other)
        return grown
    }

    /// Whether everything this set holds is in `other` too.
    public func isSubset(of other: SecretSet) -> Bool {
        values.isSubset(of: other.values) && headers.isSubset(of: other.headers)
    }

    /// Whether `value` is secret.
    public func contains(value: String) -> Bool { values.contains(value) }

    /// Whether the values of header `name` are secret whole.
    public func contains(header name: String) -> Bool { headers.contains(name.lowercased()) }
}

extension Sequence<SecretSet> {
    /// Everything the sets hold, as one.
    public func joined() -> SecretSet { reduce(SecretSet.none) { $0.adding($1) } }
}
