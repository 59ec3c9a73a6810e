import Foundation
import Synchronization
import XCTest

/// Throw-away secret stores run by the real programs, in a folder of their own: a GnuPG key
/// and a `pass` store, and a `gnome-keyring-daemon` on a D-Bus session bus that
/// `dbus-run-session` starts and ends. `environment` is what a command needs to reach them;
/// nothing here touches the user's own stores.
public final class SecretStores {
    /// The programs the stores need, from Debian's pass, gnupg, libsecret-tools, gnome-keyring
    /// and dbus packages.
    public static let programs = ["pass", "gpg", "gpgconf", "secret-tool", "gnome-keyring-daemon", "dbus-run-session"]

    /// The folder everything lives in, HOME for the programs.
    public let folder: String
    /// HOME, GNUPGHOME, PASSWORD_STORE_DIR, XDG_DATA_HOME, PATH, and once the keyring runs,
    /// DBUS_SESSION_BUS_ADDRESS.
    public private(set) var environment: [String: String]
    private var session: Process?

    /// Skips the test when a store's program is missing, or fails where CI requires them
    /// (`Repository.requirePrograms`).
    public static func requirePrograms() throws {
        try Repository.requirePrograms(programs)
    }

    /// Empty stores in a new folder under the temporary directory.
    public init() throws {
        try Self.requirePrograms()
        folder = NSTemporaryDirectory() + "moya-cli-stores-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: folder + "/gnupg", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment = [
            "HOME": folder, "GNUPGHOME": folder + "/gnupg", "PASSWORD_STORE_DIR": folder + "/store",
            "XDG_DATA_HOME": folder + "/data", "PATH": "/usr/local/bin:/usr/bin:/bin",
        ]
    }

    /// Ends the keyring's session and the GnuPG agent, and removes the folder.
    public func stop() {
        if let session {
            try? FileManager.default.removeItem(atPath: folder + "/session")
            // Reaped here, within 5 s or killed: Foundation's own wait does not return for
            // a child of a test's thread.
            let pid = session.processIdentifier
            var status: Int32 = 0
            var waited = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if waited == 100 { kill(pid, SIGKILL) }
                usleep(50_000)
                waited += 1
            }
        }
        session = nil
        _ = try? run(["gpgconf", "--kill", "gpg-agent"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: - pass

    /// A new GnuPG key without a passphrase, and a pass store for it.
    public func startPass() throws {
        try run([
            "gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key", "moya test <test@example.invalid>",
            "default", "default", "never",
        ])
        let keys = try run(["gpg", "--list-keys", "--with-colons"])
        guard let line = keys.split(separator: "\n").first(where: { $0.hasPrefix("fpr:") }),
            let fingerprint = line.split(separator: ":", omittingEmptySubsequences: false).dropFirst(9).first
        else { throw Failure(message: "gpg made no key: \(keys)") }
        try run(["pass", "init", String(fingerprint)])
    }

    /// `value` as the pass entry `entry`, followed by lines pass keeps beside it.
    public func insertPass(_ entry: String, _ value: String, more: String = "") throws {
        try run(["pass", "insert", "--multiline", entry], input: value + "\n" + more)
    }

    // MARK: - keyring

    /// A session bus with `gnome-keyring-daemon` on it, its login keyring made and unlocked:
    /// `dbus-run-session` runs until `stop()` removes the file `session`.
    public func startKeyring() throws {
        let marker = folder + "/session"
        let address = folder + "/bus-address"
        FileManager.default.createFile(atPath: marker, contents: Data())
        let script = """
            printf moya | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
            echo "$DBUS_SESSION_BUS_ADDRESS" > "$1.new" && mv "$1.new" "$1"
            while [ -e "$2" ]; do sleep 0.1; done
            """
        // Through python3, which unblocks and resets the signals this test process blocks
        // on its threads and Foundation passes on: dbus-run-session ends its bus with SIGTERM.
        let (env, python) = Launch.onPath("python3")
        let process = try Launch.start(
            env,
            python + ["-c", Self.unblocking, "dbus-run-session", "--", "sh", "-c", script, "sh", address, marker],
            environment: environment
        ).process
        session = process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: address, encoding: .utf8),
                let line = text.split(separator: "\n").first
            {
                environment["DBUS_SESSION_BUS_ADDRESS"] = String(line)
                return
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        throw Failure(message: "the keyring's session bus did not start in 20 s")
    }

    /// `value` in the keyring under `attributes`, as `secret-tool store` keeps it.
    public func storeKeyring(_ attributes: [(String, String)], _ value: String) throws {
        try run(
            ["secret-tool", "store", "--label", "moya test"] + attributes.flatMap { [$0.0, $0.1] }, input: value)
    }

    // MARK: - Running programs

    /// A python3 program that starts its arguments with no signal blocked or ignored.
    static let unblocking = """
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE, signal.SIGCHLD):
            signal.signal(s, signal.SIG_DFL)
        os.execvp(sys.argv[1], sys.argv[1:])
        """

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs `argv` in the stores' environment with `input` on stdin: its stdout, or a failure
    /// with its stderr when it does not exit 0.
    @discardableResult
    public func run(_ argv: [String], input: String = "") throws -> String {
        let (env, _) = Launch.onPath("")
        let ran = try Launch.run(env, argv, environment: environment, input: Data(input.utf8))
        guard ran.status == 0 else {
            throw Failure(message: "\(argv.joined(separator: " ")) exited \(ran.status): \(ran.error)")
        }
        return ran.out
    }
}
