// swift-tools-version: 6.1
// Weighs swiftlang/swift-subprocess against moya-cli's own posix_spawn launcher (ChildProcess)
// for the one job moya-cli gives a launcher most often: start, run one program, read its
// stdout (a `pass show`). bench/subprocess.sh builds both from clean and times them.
import PackageDescription

let package = Package(
    name: "subprocess-weigh",
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-subprocess", "1.0.2"..."1.0.2", traits: [])
    ],
    targets: [
        .executableTarget(name: "ours"),
        .executableTarget(
            name: "library", dependencies: [.product(name: "Subprocess", package: "swift-subprocess")]),
    ]
)
