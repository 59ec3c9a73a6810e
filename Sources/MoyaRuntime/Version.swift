/// moya-cli's version: `--version`, the `User-Agent` it sends, the man page's footer
/// (`scripts/man.sh` reads it from here) and the top entry of `CHANGELOG.md` all come from
/// this one line, and a test keeps them in step.
public enum Version {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
