#!/usr/bin/env bash
# Weighs a WebSocket client library for moya-cli by what it costs to build and ship: two
# scratch packages, each a small client that connects, sends and reads, built clean in release
# one after the other, and their binaries stripped.
#   a: SwiftNIO's NIOWebSocket upgrader and codec, with NIOPosix, NIOHTTP1 and NIOSSL, which
#      moya-cli builds already;
#   b: hummingbird-project/swift-websocket's WSClient (1.6.2).
# Prints each one's clean build time in seconds and its stripped size in bytes.
# Usage: bench/websocket-weigh.sh   (about 6 minutes on 2 cores; the machine's package mirror)
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a/Sources/a" "$work/b/Sources/b"
cat > "$work/a/Package.swift" <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "a", platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .executableTarget(
            name: "a",
            dependencies: [
                .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ])
    ])
SWIFT
cat > "$work/a/Sources/a/main.swift" <<'SWIFT'
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

let context = try NIOSSLContext(configuration: .makeClientConfiguration())
let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(upgradePipelineHandler: { channel, _ in
    channel.eventLoop.makeSucceededFuture(true)
})
let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: 9) {
    channel in
    channel.eventLoop.makeCompletedFuture {
        _ = try NIOSSLClientHandler(context: context, serverHostname: nil)
        return channel
    }
}
print(channel, upgrader)
SWIFT
cat > "$work/b/Package.swift" <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "b", platforms: [.macOS(.v15)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2")],
    targets: [.executableTarget(name: "b", dependencies: [.product(name: "WSClient", package: "swift-websocket")])])
SWIFT
cat > "$work/b/Sources/b/main.swift" <<'SWIFT'
import Logging
import WSClient

_ = try await WebSocketClient.connect(url: "ws://127.0.0.1:9/", logger: Logger(label: "b")) { inbound, outbound, _ in
    try await outbound.write(.text("Hello"))
    for try await message in inbound.messages(maxSize: 1 << 14) { print(message) }
}
SWIFT
for name in a b; do
  (cd "$work/$name" && swift package resolve > /dev/null)
  start=$(date +%s)
  (cd "$work/$name" && swift build -c release > /dev/null)
  seconds=$(($(date +%s) - start))
  strip -o "$work/$name.stripped" "$work/$name/.build/release/$name"
  echo "$name: ${seconds} s to build, $(stat -c %s "$work/$name.stripped") bytes stripped"
done
