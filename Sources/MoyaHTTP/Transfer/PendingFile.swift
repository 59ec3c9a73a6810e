import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file being written, removed again if it is not finished.
final class FileWriter {
    let path: String
    private var descriptor: Int32
    /// Whether the file is a device or FIFO written in place, which is never removed.
    private let isDirect: Bool

    /// Creates a new file with permissions `mode` (before the umask); it must not exist.
    init(path: String, mode: mode_t = 0o644) throws(NetworkError) {
        self.path = path
        isDirect = false
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw NetworkError(.fileFailed, "cannot create \(path)") }
    }

    /// Opens an existing device, FIFO or socket to write to it in place. The open does not
    /// wait: a FIFO that nothing reads is an error, not a hang; writes then block as usual.
    init(direct path: String) throws(NetworkError) {
        self.path = path
        isDirect = true
        descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw NetworkError(
                .fileFailed,
                errno == ENXIO ? "cannot write \(path): nothing is reading the FIFO" : "cannot open \(path) for writing"
            )
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(NetworkError) {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw NetworkError(.fileFailed, "cannot write \(path)") }
            offset += written
        }
    }

    func close() throws(NetworkError) {
        guard SystemCall.close(descriptor) == 0 else { throw NetworkError(.fileFailed, "cannot write \(path)") }
        descriptor = -1
    }

    /// Closes the file and removes it, unless it is written in place.
    func discard() {
        if descriptor >= 0 { _ = SystemCall.close(descriptor) }
        descriptor = -1
        if !isDirect { unlink(path) }
    }
}

/// The C library's calls under names that methods called `write` and `close` do not hide.
package enum SystemCall {
    #if canImport(Glibc)
        package static let write = Glibc.write
        package static let close = Glibc.close
    #elseif canImport(Musl)
        package static let write = Musl.write
        package static let close = Musl.close
    #elseif canImport(Darwin)
        package static let write = Darwin.write
        package static let close = Darwin.close
    #endif
}

/// A file a body or a report is being written to, committed only when it is whole.
///
/// A regular file, or a path where nothing is yet, is written as a temporary file in the same
/// directory and renamed over the path on `commit()`, so the rename never crosses filesystems
/// and no partial file is ever seen there. Anything else (a character device such as
/// `/dev/null`, a FIFO, a socket, a terminal) is written directly: renaming over it would
/// replace it. A symlink is followed to what it points at, so the link stays a link.
public final class PendingFile: Sendable {
    /// The path as given.
    public let path: String
    /// The path written in the end, symlinks followed.
    public let target: String
    private let writer: Mutex<FileWriter?>
    private let temporary: String?

    /// Opens `path` for writing as described above; a new file gets permissions `mode`, so
    /// that a file holding a secret (0o600) is never readable by others, not even while it
    /// is being written.
    ///
    /// With `followsLinks: false`, a symlink at `path` is refused instead of followed, and only
    /// a regular file or nothing may be there: for a file in a directory others could plant a
    /// link in, such as a token cache.
    public init(path: String, mode: mode_t = 0o644, followsLinks: Bool = true) throws(NetworkError) {
        self.path = path
        target = followsLinks ? try Self.followingLinks(path) : path
        var info = stat()
        let exists = lstat(target, &info) == 0
        if !followsLinks, exists, (info.st_mode & S_IFMT) != S_IFREG {
            throw NetworkError(.fileFailed, "cannot write \(path): it is a link or not a regular file")
        }
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw NetworkError(.fileFailed, "cannot write \(path): it is a directory")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            temporary = nil
            writer = Mutex(try FileWriter(direct: target))
        } else {
            let temporaryPath = Self.temporaryPath(beside: target)
            temporary = temporaryPath
            writer = Mutex(try FileWriter(path: temporaryPath, mode: mode))
        }
    }

    /// Writes all of `bytes` to `path` whole, or leaves nothing behind.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, followsLinks: Bool = true)
        throws(NetworkError)
    {
        let file = try PendingFile(path: path, mode: mode, followsLinks: followsLinks)
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(NetworkError) {
        let open = writer.withLock { $0 }
        guard let open else { throw NetworkError(.fileFailed, "cannot write \(path): it is closed") }
        try open.write(bytes)
    }

    /// Writes all of `data`.
    public func write(_ data: [UInt8]) throws(NetworkError) {
        let failure = data.withUnsafeBytes { bytes -> NetworkError? in
            do throws(NetworkError) {
                try write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Finishes the file: closes it and renames the temporary file into place.
    public func commit() throws(NetworkError) {
        guard let writer = writer.withLock({ $0.take() }) else { return }
        do {
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
        if let temporary, rename(temporary, target) != 0 {
            unlink(temporary)
            throw NetworkError(.fileFailed, "cannot move the file into place at \(path)")
        }
    }

    /// Abandons the file: a temporary file is removed; a device or FIFO is only closed.
    public func discard() {
        writer.withLock { $0.take() }?.discard()
    }

    /// `path` with every symlink along its last component followed, up to 40 links.
    static func followingLinks(_ path: String) throws(NetworkError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw NetworkError(.fileFailed, "cannot read the link \(current)") }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let directory = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                current = directory + link
            }
        }
        throw NetworkError(.fileFailed, "cannot write \(path): too many levels of symbolic links")
    }

    /// A new, hidden name in the same directory as `path`.
    package static func temporaryPath(beside path: String) -> String {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() as UInt32, radix: 16)
        return (directory.isEmpty ? "" : directory + "/") + ".\(name).moya-\(suffix).part"
    }
}
