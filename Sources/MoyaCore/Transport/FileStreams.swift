import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A local file read in chunks, for streaming an upload body.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    let size: Int64

    init(path: String) throws(NetworkError) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw NetworkError(.fileFailed, "cannot read \(path)")
        }
        self.path = path
        size = Int64(info.st_size)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let path: String
        var descriptor: Int32 = -1
        var finished = false

        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            if descriptor < 0 {
                descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { throw NetworkError(.fileFailed, "cannot open \(path)") }
            }
            var buffer = ByteBufferAllocator().buffer(capacity: 1 << 16)
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 1 << 16) { raw in
                read(descriptor, raw.baseAddress, raw.count)
            }
            if count <= 0 {
                close(descriptor)
                finished = true
                if count < 0 { throw NetworkError(.fileFailed, "cannot read \(path)") }
                return nil
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(path: path)
    }
}

/// A file being written, removed again if it is not finished.
final class FileWriter {
    let path: String
    private var descriptor: Int32

    init(path: String) throws(NetworkError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw NetworkError(.fileFailed, "cannot create \(path)") }
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

    /// Closes and removes the file.
    func discard() {
        if descriptor >= 0 { _ = SystemCall.close(descriptor) }
        descriptor = -1
        unlink(path)
    }
}

/// The C library's calls under names that methods called `write` and `close` do not hide.
enum SystemCall {
    #if canImport(Glibc)
        static let write = Glibc.write
        static let close = Glibc.close
    #elseif canImport(Darwin)
        static let write = Darwin.write
        static let close = Darwin.close
    #endif
}
