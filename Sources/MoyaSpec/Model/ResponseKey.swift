/// The response a sample stands for, in OpenAPI's words: a status (`404`), a range (`4XX`)
/// or `default`. A spec's samples carry only a status, so `import openapi` names a sample of
/// a range or of `default` by the key (`clientError…` at 400, `status5XX…` at 500, `error…`
/// at 500), and this reads the key back: `export openapi` writes its responses by it, and
/// coverage counts a target's declared responses by it.
public enum ResponseKey {
    /// The keys that are not one status, each with the status its samples answer and the
    /// prefix of their names.
    static let ranges: [(key: String, status: Int, prefix: String)] = [
        ("default", 500, "error"), ("1XX", 100, "status1XX"), ("2XX", 200, "status2XX"),
        ("3XX", 300, "status3XX"), ("4XX", 400, "clientError"), ("5XX", 500, "status5XX"),
    ]

    /// What import's sample names for the response `key` start with: nil for one status,
    /// which is named by its own word (`notFound`).
    public static func namePrefix(of key: String) -> String? {
        ranges.first { $0.key == key.uppercased() || $0.key == key }?.prefix
    }

    /// The response a sample called `name` (nil: the default sample) at `status` stands for.
    public static func key(ofSample name: String?, status: Int) -> String {
        guard let name else { return String(status) }
        for range in ranges where range.status == status && name.hasPrefix(range.prefix) {
            return range.key
        }
        return String(status)
    }

    /// The declared key a response's `status` falls under, as OpenAPI matches a response:
    /// its own status, else its range, else `default`; nil when none of `declared` does.
    public static func match(_ status: Int, in declared: some Collection<String>) -> String? {
        let exact = String(status)
        if declared.contains(exact) { return exact }
        let range = "\(status / 100)XX"
        if (1...5).contains(status / 100), declared.contains(range) { return range }
        return declared.contains("default") ? "default" : nil
    }
}
