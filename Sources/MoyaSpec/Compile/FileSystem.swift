#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few questions about files that spec discovery asks, answered with one `stat` each.
enum FileSystem {
    enum Kind: Equatable {
        case missing, file, directory
        /// Anything else, named in words: "a FIFO", "a device".
        case other(String)
    }

    /// Which file a path reaches, links followed: the same identity means the same file.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    static func kind(_ path: String) -> Kind {
        entry(path).kind
    }

    /// What `path` is, and its identity when it exists.
    static func entry(_ path: String) -> (kind: Kind, identity: Identity?) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (.missing, nil) }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (.file, identity)
        case S_IFDIR: return (.directory, identity)
        case S_IFIFO: return (.other("a FIFO"), identity)
        case S_IFCHR, S_IFBLK: return (.other("a device"), identity)
        case S_IFSOCK: return (.other("a socket"), identity)
        default: return (.other("not a regular file"), identity)
        }
    }

    /// The whole contents of the file at `path`, read with `read(2)` into an array sized by
    /// `fstat`, with no copy; nil when it cannot be opened or read. A file that grows while it
    /// is read is read to its end.
    static func contents(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return contents(of: descriptor, size: Int(clamping: info.st_size))
    }

    /// What is left to read of `descriptor`, whose file `fstat` gave as `size` bytes.
    private static func contents(of descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        // One byte more than the size, so that a full buffer says the file grew.
        var room = max(size, 0) + 1
        while true {
            var failed = false
            let part = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                count = 0
                guard let base = buffer.baseAddress else { return }
                while count < buffer.count {
                    let got = read(descriptor, base + count, buffer.count - count)
                    if got > 0 {
                        count += got
                    } else if got == 0 {
                        return
                    } else if errno != EINTR {
                        failed = true
                        return
                    }
                }
            }
            if failed { return nil }
            if bytes.isEmpty { bytes = part } else { bytes += part }
            if part.count < room { return bytes }
            room = 64 << 10
        }
    }

    /// `body` on the whole contents of the regular file at `path`; nil when it cannot be read.
    ///
    /// A file of `mappedSize` or more is mapped from the page cache rather than copied: a large
    /// spec that a call needs a few lines of then costs no copy and no fresh memory (a
    /// 1.2 MB spec took 450 page faults more read than mapped). The price is the one every
    /// mapping pays: a file cut short by another process during the millisecond it is read
    /// ends the process with SIGBUS. Smaller files, which cost little to copy, are read.
    static func withContents<Result>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(clamping: info.st_size)
        guard info.st_mode & S_IFMT == S_IFREG, size >= mappedSize,
            let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        else {
            return contents(of: descriptor, size: size).map { $0.withUnsafeBufferPointer(body) }
        }
        defer { munmap(address, size) }
        return body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size))
    }

    /// The size from which `withContents` maps a file.
    static let mappedSize = 256 << 10

    static func isRegularFile(_ path: String) -> Bool {
        kind(path) == .file
    }
}
