import MoyaBinding
import MoyaHTTP
import MoyaJSONPath
import MoyaSpec
import MoyaStreams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes live responses into a spec's samples, as `call --record` and `check --record` do.
///
/// What is written is decided from the structure of the exchange, never by searching the
/// spec's text: the status; the headers a client reads (`keptHeaders`) and those the sample
/// already lists, less the volatile ones and any the request or the spec holds secret; and the
/// body, scrubbed of every secret the exchange's redactor holds in each encoding, with the
/// tokens a login binds from this target masked too (`Logins.tokens`). A body that is not text, or is
/// larger than `largestInlineBody`, goes to a file beside the spec.
///
/// The spec file is edited in place (`SampleEdit`), read back and compiled before it is
/// written: the sample must answer with the very bytes that came, or nothing is written.
public struct SampleRecorder: Sendable {
    /// The largest body written into the spec itself.
    public static let largestInlineBody = 1 << 20
    /// Headers recorded whenever a response has them: what a client of the sample reads.
    public static let keptHeaders = [
        "Content-Type", "Content-Disposition", "Content-Language", "Location", "Link", "Allow", "WWW-Authenticate",
        "Deprecation", "Sunset",
    ]
    /// Headers never recorded, even when a sample lists them: they change with every response,
    /// or belong to the connection rather than the resource.
    public static let volatileHeaders: Set<String> = [
        "date", "age", "expires", "last-modified", "etag", "set-cookie", "content-length", "transfer-encoding",
        "connection", "keep-alive", "server-timing", "x-request-id", "request-id", "x-correlation-id", "x-trace-id",
        "traceparent", "tracestate", "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2", "x-amzn-trace-id",
        "cf-ray", "x-runtime", "x-response-time", "x-github-request-id", "x-ratelimit-remaining",
        "x-ratelimit-reset", "x-ratelimit-used", "ratelimit-remaining", "ratelimit-reset", "retry-after",
    ]

    /// Compiles the edited spec to check it before it is written.
    public let check: EditCheck
    /// Every loaded service, compiled whole, for the logins that read a token from the target
    /// recorded.
    public let services: [ServiceSpec]

    /// A recorder.
    public init(check: EditCheck, services: [ServiceSpec]) {
        self.check = check
        self.services = services
    }

    /// What one recording did.
    public struct Recording: Sendable {
        /// The spec file.
        public let file: String
        /// The sample's key path, such as `targets.user.samples.missing`.
        public let keyPath: String
        /// The unified diff of the spec; empty when nothing changed.
        public let diff: String
        /// The file the body went to, if it went to one.
        public let bodyFile: String?
        /// Whether that file's bytes changed.
        public var bodyChanged = false
        /// Where the recorded sample breaks its schema, each as `file:line:col: warning: …`:
        /// the live API no longer meets the contract the spec states.
        public var warnings: [String] = []
    }

    /// Why a response was not recorded.
    public struct Failure: Problem {
        /// One line.
        public let message: String
        /// Whether the spec cannot be edited as it is written (a flow-style target, say),
        /// rather than a file that could not be written.
        public let isSpecProblem: Bool

        public var failureKind: FailureKind { isSpecProblem ? .invalid : .unwritable }
    }

    /// Records `response` into `target`'s default sample, or its sample `name`. `redactor` is
    /// the exchange's (`Delivered.redactor`): what it holds secret, with the tokens a login
    /// binds from this response (`Logins.tokens`), is masked in the sample, `--show-secrets`
    /// or not.
    public func record(
        _ response: Response, redactor: Redactor, target: TargetSpec, of service: ServiceSpec, named name: String?,
        events: [RecordedSample.Event]? = nil
    ) throws(Failure) -> Recording {
        let edit = SampleEdit(file: service.file, target: target.name, sample: name)
        try Self.checkWritable(service.file)
        // Recordings into one folder take turns, so that none is lost to another's write.
        let lock = try FolderLock(folderOf: service.file)
        defer { lock.release() }
        guard let original = FileManager.default.contents(atPath: service.file) else {
            throw Failure(message: "cannot read \(service.file)", isSpecProblem: false)
        }
        let text = String(decoding: original, as: UTF8.self)
        let existing: SampleSpec? = if let name { target.sample(named: name) } else { target.sample }
        var always = redactor
        always.isEnabled = true
        let scrubber = always.exchanged(response).adding(
            Logins.tokens(in: response, of: target, of: service, among: services))
        let bytes = Array(response.data)
        let headers = recordedHeaders(response.headers, existing: existing, redactor: scrubber)
        var bodyFile: (path: String, written: String, bytes: [UInt8])?
        var bodies: [RecordedSample.Body] = []
        if let events {
            // A stream's events, each text scrubbed of the exchange's secrets.
            bodies = [
                .events(
                    events.map { event in
                        var event = event
                        event.data = scrubber.scrub(event.data)
                        event.event = event.event.map(scrubber.scrub)
                        event.id = event.id.map(scrubber.scrub)
                        return event
                    })
            ]
        } else if bytes.isEmpty {
            bodies = [.empty]
        } else if bytes.count <= Self.largestInlineBody, !bytes.contains(0),
            let raw = String(validating: bytes, as: UTF8.self)
        {
            bodies = Self.inlineBodies(scrubber.scrub(raw), masking: scrubber)
        } else {
            let file = bodyPath(for: existing, target: target, of: service, name: name, headers: response.headers)
            let confined: String
            do {
                confined = try service.fileRoot.destination(file.path)
            } catch {
                throw Failure(message: "\(service.file): \(edit.keyPath): \(error)", isSpecProblem: false)
            }
            bodyFile = (confined, file.written, scrubber.scrub(bytes: bytes))
            bodies = [.file(file.written)]
        }

        // A body file is in place before the spec is compiled, which reads it; a new one is
        // removed again if the spec is not written.
        var removesBodyFile = false
        var bodyChanged = false
        if let bodyFile {
            let before = FileManager.default.contents(atPath: bodyFile.path)
            removesBodyFile = before == nil
            bodyChanged = before.map(Array.init) != bodyFile.bytes
            if bodyChanged { try Self.write(bodyFile.bytes, to: bodyFile.path, like: nil) }
        }
        // The first form that reads back as the bytes that came is written: `json:` where the
        // stub serializes the value to them, else the text.
        var lastProblem = ""
        for body in bodies {
            let sample = RecordedSample(status: response.statusCode, headers: headers, body: body)
            let edited: String
            do {
                edited = try edit.apply(sample, to: text)
            } catch {
                if removesBodyFile, let bodyFile { unlink(bodyFile.path) }
                throw Failure(message: error.description, isSpecProblem: true)
            }
            if let problem = verify(edited, edit: edit, sample: sample, service: service) {
                lastProblem = problem
                continue
            }
            if edited != text {
                do {
                    try Self.write(Array(edited.utf8), to: service.file, like: service.file)
                } catch {
                    if removesBodyFile, let bodyFile { unlink(bodyFile.path) }
                    throw error
                }
            }
            return Recording(
                file: service.file, keyPath: edit.keyPath,
                diff: shownDiff(text, edited, of: service, redactor: redactor), bodyFile: bodyFile?.path,
                bodyChanged: bodyChanged,
                // Only a sample with a schema to meet is compiled again to find where it breaks it.
                warnings: target.contract(forSample: name) == nil
                    ? [] : drift(in: edited, edit: edit, file: service.file))
        }
        if removesBodyFile, let bodyFile { unlink(bodyFile.path) }
        throw Failure(
            message: "\(service.file): \(edit.keyPath): the recorded sample would not read back as the response "
                + "(\(lastProblem)); nothing was written",
            isSpecProblem: false)
    }

    /// The diff of the spec as it may be printed: its context is the spec's own text, with the
    /// secrets its services bind (`ServiceSpec.boundSecrets`) masked unless secrets are shown.
    func shownDiff(_ text: String, _ edited: String, of service: ServiceSpec, redactor: Redactor) -> String {
        let bound = services.filter { $0.file == service.file }.boundSecrets.adding(service.boundSecrets)
        return redactor.adding(bound).scrub(UnifiedDiff.between(text, edited, path: service.file))
    }

    /// The forms text may be written in, in the order tried: `json:` where the stub writes
    /// the value back as the very text, then the text itself. A JSON string that is a secret
    /// of `redactor` is masked whole, however short (`Redactor.masking(_:)`): the value the
    /// JSON then holds is written, and its serialization is the text.
    static func inlineBodies(_ text: String, masking redactor: Redactor) -> [RecordedSample.Body] {
        guard let json = try? JSONValue(parsing: Data(text.utf8)) else { return [.text(text)] }
        let masked = redactor.masking(json)
        if masked != json { return [.json(masked), .text(masked.serialized(escapeSlashes: false))] }
        return json.serialized(escapeSlashes: false) == text ? [.json(json), .text(text)] : [.text(text)]
    }

    /// Whether `check --record` records a check's response, into the check's named sample or
    /// else the default one: its status must be one the check expects (its `status`
    /// assertion, else the target's validation), and the default sample takes only a status
    /// the target's validation accepts.
    public static func records(_ response: Response, for check: CheckSpec, validation: ValidationType) -> Bool {
        let status = CheckSpec(
            name: "", assertions: check.assertions.filter { $0.subject == .status }, mark: check.mark)
        guard status.failures(of: response, seconds: 0, validation: validation, sample: nil).isEmpty else {
            return false
        }
        return check.sample != nil || validation.accepts(response.statusCode)
    }

    /// The response's headers that are written: `keptHeaders` and those the existing sample
    /// lists, in that order and spelled as there, less volatile and secret ones; a header sent
    /// more than once is joined with commas.
    func recordedHeaders(_ headers: HTTPHeaders, existing: SampleSpec?, redactor: Redactor) -> HTTPHeaders {
        var names = Self.keptHeaders
        if case .response(_, let listed, _)? = existing {
            for header in listed where !names.contains(where: { $0.lowercased() == header.name.lowercased() }) {
                names.append(header.name)
            }
        }
        var recorded = HTTPHeaders()
        for name in names {
            let lowered = name.lowercased()
            guard !Self.volatileHeaders.contains(lowered), !redactor.secretHeaders.contains(lowered) else { continue }
            let values = headers.values(for: name)
            guard !values.isEmpty else { continue }
            recorded.add(name: name, value: redactor.scrub(values.joined(separator: ", ")))
        }
        return recorded
    }

    /// Where a body that is not written inline goes: the existing sample's file, else
    /// `SERVICE.TARGET[.NAME].EXT` beside the spec. `written` is the path as the spec gives it.
    func bodyPath(
        for existing: SampleSpec?, target: TargetSpec, of service: ServiceSpec, name: String?, headers: HTTPHeaders
    ) -> (path: String, written: String) {
        let folder = service.file.lastIndex(of: "/").map { String(service.file[...$0]) } ?? ""
        if case .response(_, _, .file(let path))? = existing {
            let written = !folder.isEmpty && path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
            return (path, written.hasPrefix("./") ? String(written.dropFirst(2)) : written)
        }
        let parts = [service.name, target.name] + (name.map { [$0] } ?? [])
        let stem = parts.map(Self.fileSafe).joined(separator: ".")
        let written = stem + "." + SampleFileType.fileExtension(forContentType: headers["Content-Type"])
        return (folder + written, written)
    }

    /// A name part with only letters, digits, `-` and `_`; anything else becomes `_`.
    static func fileSafe(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                    ? Character(scalar) : "_"
            })
    }

    /// Nil when `edited` compiles and its sample answers with `sample`'s status and body,
    /// else what differs.
    func verify(_ edited: String, edit: SampleEdit, sample: RecordedSample, service: ServiceSpec) -> String? {
        let compiled: ServiceSpec
        do {
            compiled = try check.compile(Array(edited.utf8), service.file, edit.target, false)
        } catch {
            return "the edited spec does not compile: \(error.diagnostics.first?.description ?? "")"
        }
        guard let target = compiled.target(named: edit.target) else { return "the target is gone" }
        let rendered: EndpointSampleResponse
        do {
            rendered = try compiled.sample(of: target, named: edit.sample, values: [:])
        } catch {
            return error.message
        }
        guard case .response(let head, let body) = rendered else { return "it is not a response" }
        if head.statusCode != sample.status { return "status \(head.statusCode)" }
        switch sample.body {
        case .empty: return body.isEmpty ? nil : "a body"
        case .json(let value): return body == Data(value.serialized(escapeSlashes: false).utf8) ? nil : "JSON"
        case .text(let text): return body == Data(text.utf8) ? nil : "text"
        case .file: return nil
        case .events(let events):
            let kind = target.stream?.kind ?? .sse
            let wire = events.enumerated().flatMap { index, event in
                StreamEvent(index: index, event: event.event, id: event.id, data: event.data, retry: event.retry)
                    .wire(as: kind)
            }
            return body == Data(wire) ? nil : "the events"
        }
    }

    /// The recorded sample's violations of its schema, as `validate` would report them.
    func drift(in edited: String, edit: SampleEdit, file: String) -> [String] {
        do {
            _ = try check.compile(Array(edited.utf8), file, edit.target, true)
            return []
        } catch {
            return error.diagnostics.filter { $0.keyPath == edit.keyPath }.map { diagnostic in
                var warning = diagnostic
                warning.severity = .warning
                return warning.description
            }
        }
    }

    /// Refuses a spec that is a link, or that nobody may write (`0444`): a recording never
    /// writes through a link, nor replaces a file its owner made read-only. The mode is read
    /// rather than asked with `access(2)`, which says yes to root.
    static func checkWritable(_ file: String) throws(Failure) {
        var info = stat()
        guard lstat(file, &info) == 0 else { throw Failure(message: "cannot read \(file)", isSpecProblem: false) }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw Failure(
                message:
                    "\(file) is a symbolic link, which a recording never writes through; record into the file it names",
                isSpecProblem: false)
        }
        if info.st_mode & 0o222 == 0 {
            throw Failure(
                message: "\(file) is read-only (\(String(info.st_mode & 0o777, radix: 8))); nothing was recorded",
                isSpecProblem: false)
        }
    }

    /// Writes a file whole; a spec keeps its permissions.
    static func write(_ bytes: [UInt8], to path: String, like existing: String?) throws(Failure) {
        var mode: mode_t = 0o644
        var info = stat()
        if let existing, stat(existing, &info) == 0 { mode = info.st_mode & 0o7777 }
        do {
            try PendingFile.write(bytes, to: path, mode: mode)
        } catch {
            throw Failure(message: error.message, isSpecProblem: false)
        }
    }
}

/// An exclusive `flock(2)` on a spec's folder, held while a recording reads, edits and writes
/// the spec: concurrent recordings into one folder are serialised, and none loses another's
/// edit. The folder is locked rather than the spec, which each write replaces with a new file.
struct FolderLock {
    private let descriptor: Int32

    init(folderOf file: String) throws(SampleRecorder.Failure) {
        let folder = file.lastIndex(of: "/").map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SampleRecorder.Failure(message: "cannot open \(folder) to record into it", isSpecProblem: false)
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw SampleRecorder.Failure(message: "cannot lock \(folder) to record into it", isSpecProblem: false)
            }
        }
    }

    func release() {
        close(descriptor)
    }
}
