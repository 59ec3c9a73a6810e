import MoyaSpec

/// An Arazzo document named on the command line: read, its sources loaded, and validated, as
/// `validate`, `run` and `check` read one.
struct ArazzoFile {
    let document: ArazzoDocument
    let sources: [ArazzoSource]

    /// `--source NAME=FILE` options as a map; a repeated name or one without `=` is a usage
    /// error.
    static func sourceFiles(_ options: [String]) throws(CommandFailure) -> [String: String] {
        var files: [String: String] = [:]
        for option in options {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex,
                option.index(after: equals) != option.endIndex
            else { throw .usage("--source takes NAME=FILE, got '\(option)'") }
            let name = String(option[..<equals])
            guard files[name] == nil else { throw .usage("--source names '\(name)' twice") }
            files[name] = String(option[option.index(after: equals)...])
        }
        return files
    }

    /// Reads and validates the document at `path`: its warnings go to stderr, and an error
    /// fails with every diagnostic (exit 65); a file that cannot be read is exit 66.
    static func validate(_ path: String, sources given: [String: String]) throws(CommandFailure) -> ArazzoFile {
        guard let bytes = FileRoot.specBytes(path) else { throw .missingSpec("cannot read \(path)") }
        let document: ArazzoDocument
        do {
            document = try ArazzoDocument(bytes, file: path)
        } catch {
            throw CommandFailure(error)
        }
        for name in given.keys where !document.sources.contains(where: { $0["name"]?.stringValue == name }) {
            let names = document.sources.compactMap { $0["name"]?.stringValue }
            throw .usage("\(path) has no source description '\(name)'" + Suggestion.hint(for: name, in: names))
        }
        let sources = ArazzoSource.load(document, given: given, fileRoot: FileRoot(spec: path))
        let validator = ArazzoValidator(document, sources: sources)
        let errors = validator.diagnostics.filter { $0.severity == .error }
        for warning in validator.diagnostics where warning.severity == .warning {
            CommandContext.current.errorLine(TerminalText.escapingControls(warning.description))
        }
        guard errors.isEmpty else { throw CommandFailure(SpecError(errors)) }
        return ArazzoFile(document: document, sources: sources)
    }
}
