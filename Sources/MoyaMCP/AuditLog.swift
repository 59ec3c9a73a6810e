import MoyaHTTP
import MoyaMCPProtocol
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--audit FILE`: one JSON line per tool call, refused ones too, appended as each call ends:
/// the time, who called (over HTTP), the tool, the arguments with secrets masked, the outcome, the status, the
/// duration and the body's size. The file is created readable by its owner alone and never
/// opened through a link; each line is one `write`, so lines from calls that end together do
/// not interleave.
public final class AuditLog: Sendable {
    private let descriptor: Mutex<Int32>
    /// The current time as RFC 3339 UTC with milliseconds; a parameter so tests can fix it.
    private let now: @Sendable () -> String

    /// Why the file cannot be opened.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "--audit \(path): \(reason)" }
    }

    /// Opens `path` for appending, creating it with mode 0600. Opened without blocking: a
    /// FIFO would otherwise hold the server before it starts, deaf to signals, until some
    /// process reads it; it is refused as any file that is not a regular one.
    public init(path: String, now: @escaping @Sendable () -> String = AuditLog.timestamp) throws(OpenError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let code = errno
            let reason =
                switch code {
                case ELOOP: "is a symbolic link, which the audit log never follows"
                case ENXIO: "is not a regular file"
                default: String(cString: strerror(code))
                }
            throw OpenError(path: path, reason: reason)
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw OpenError(path: path, reason: "is not a regular file")
        }
        descriptor = Mutex(fd)
        self.now = now
    }

    deinit {
        descriptor.withLock { fd in _ = close(fd) }
    }

    /// Appends the line for one call. `arguments` have been masked by the caller's redactor.
    /// `caller`, over HTTP, is who called: the token's subject and the client's address.
    public func record(tool: String, arguments: JSONValue, outcome: ToolOutcome, caller: JSONValue? = nil) {
        var members: [(key: String, value: JSONValue)] = [("time", .string(now()))]
        if let caller { members.append(("caller", caller)) }
        members += [("tool", .string(tool)), ("arguments", arguments), ("outcome", .string(outcome.kind.rawValue))]
        members.append(("status", outcome.status.map(JSONValue.integer) ?? .null))
        members.append(("ms", .integer(Int((outcome.seconds * 1000).rounded()))))
        members.append(("bytes", .integer(outcome.bytes)))
        let line = Array((JSONValue.object(members).serialized(escapeSlashes: false) + "\n").utf8)
        descriptor.withLock { fd in
            var offset = 0
            while offset < line.count {
                let written = line[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Now, as `2026-11-26T10:15:00.123Z`.
    @Sendable public static func timestamp() -> String {
        Date.now.ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
