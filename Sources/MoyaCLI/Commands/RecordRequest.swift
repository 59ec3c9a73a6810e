import MoyaBinding
import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaRuntime
import MoyaSpec

/// `--record`, for `call` and `check`: live responses written into the spec's samples, each
/// change shown as a diff on stderr.
struct RecordRequest: Sendable {
    /// The sample to write for `call`: nil for the default.
    var sample: String?

    /// Pulls `--record [NAME]` out of `call`'s param words: NAME is the next word when it is
    /// neither an option nor a `NAME=VALUE` param. Nil when the words do not ask to record.
    static func take(from words: inout [String]) throws -> RecordRequest? {
        guard let index = words.firstIndex(where: { $0 == "--record" || $0.hasPrefix("--record=") }) else {
            return nil
        }
        var request = RecordRequest()
        let word = words.remove(at: index)
        if word.hasPrefix("--record=") {
            request.sample = String(word.dropFirst("--record=".count))
        } else if index < words.count, !words[index].hasPrefix("-"), !words[index].contains("=") {
            request.sample = words.remove(at: index)
        }
        if request.sample?.isEmpty == true { throw UsageError("--record= needs a sample's name") }
        if words.contains(where: { $0 == "--record" || $0.hasPrefix("--record=") }) {
            throw UsageError("--record is given more than once")
        }
        return request
    }

    /// Refuses to record where `CI` is set (to anything but empty, `0` or `false`), unless
    /// `--force`: a recording changes the spec, which a CI run should only check.
    static func checkAllowed(force: Bool, environment: Environment) throws {
        guard !force, let value = environment["CI"], !["", "0", "false"].contains(value.lowercased()) else { return }
        throw UsageError(
            "--record changes the spec, and CI is set, so nothing is recorded; add --force to record in CI")
    }

    /// Records `response` and shows what changed; a spec that cannot be edited as written is
    /// an invalid-spec failure, a file that cannot be written a `cannotWrite` one.
    static func record(
        _ response: Response, redactor: Redactor, target: TargetSpec, of service: ServiceSpec, named name: String?,
        recorder: SampleRecorder, context: CommandContext, events: [RecordedSample.Event]? = nil
    ) throws {
        let recording: SampleRecorder.Recording
        do {
            recording = try recorder.record(
                response, redactor: redactor, target: target, of: service, named: name, events: events)
        } catch {
            throw error
        }
        let place = "\(recording.keyPath) in \(recording.file)"
        // The live API breaks the schema the spec states: said, not hidden.
        defer { for warning in recording.warnings { context.errorLine(TerminalText.escapingControls(warning)) } }
        if recording.diff.isEmpty {
            if recording.bodyChanged, let file = recording.bodyFile {
                context.errorLine("moya-cli: recorded \(place); the body in \(file) changed")
            } else {
                context.errorLine("moya-cli: \(place) is unchanged")
            }
            return
        }
        // The diff quotes the spec's own lines: no control character in them reaches the terminal.
        for line in recording.diff.split(separator: "\n") {
            context.errorLine(TerminalText.escapingControls(String(line)))
        }
        let body = recording.bodyFile.map { "; the body is in \($0)" } ?? ""
        context.errorLine("moya-cli: recorded \(place)\(body)")
    }
}

extension EditCheck {
    /// The checks of `compiler`, samples rendered as `validate` renders them.
    public init(_ compiler: SpecCompiler) {
        self.init { text, file, target, checkingSamples throws(SpecError) in
            var compiling = compiler
            if checkingSamples { compiling.sampleBodies = ServiceSpec.sampleBody }
            return try compiling.compile(text, file: file, target: target)
        }
    }
}
