/// Where the repository's files are, found from this file's path, so that tests read fixtures
/// and specs wherever the clone is.
public enum Repository {
    /// The repository's root.
    public static let root: String = {
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// `Tests/Fixtures`.
    public static let fixtures = root + "/Tests/Fixtures"
    /// The bundled specs.
    public static let specs = root + "/specs"
}
