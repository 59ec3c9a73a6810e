/// Hides secrets in anything printed: credential headers' values, and any value known to be
/// secret, wherever it appears.
public struct Redactor: Sendable {
    /// What a secret prints as.
    public static let mask = "••••"
    /// Headers whose values are always secret.
    public static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether anything is hidden; `--show-secrets` turns this off.
    public var isEnabled: Bool
    /// Header names, lowercased, whose values are hidden.
    public var secretHeaders: Set<String>
    /// Values hidden wherever they appear.
    public var secretValues: [String]

    /// Creates a redactor.
    public init(isEnabled: Bool = true, secretHeaders: Set<String> = [], secretValues: Set<String> = []) {
        self.isEnabled = isEnabled
        self.secretHeaders = Self.credentialHeaders.union(secretHeaders.map { $0.lowercased() })
        // Longest first, so that a secret containing another is hidden whole.
        self.secretValues = secretValues.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// A header's value as it may be printed.
    public func header(name: String, value: String) -> String {
        guard isEnabled else { return value }
        if secretHeaders.contains(name.lowercased()) { return Self.mask }
        return text(value)
    }

    /// Text with every secret value replaced by the mask.
    public func text(_ text: String) -> String {
        guard isEnabled, !secretValues.isEmpty else { return text }
        var result = text
        for secret in secretValues where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }
}
