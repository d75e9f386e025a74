import Foundation

/// A headless Chromium (Debian's `chromium` package) with its DevTools endpoint, for driving the page.
final class Chromium: Sendable {
    let process: Process
    let profile: URL
    /// The browser's DevTools WebSocket URL.
    let devToolsURL: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts Chromium with a throwaway profile and waits for its DevTools endpoint.
    static func launch() async throws -> Chromium {
        guard
            let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw Failure(description: "no Chromium: install Debian's chromium package (.ci/run does)")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "live-list-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--window-size=1400,1800", "--remote-debugging-port=0",
            "--remote-allow-origins=*",
            // Pages in background tabs keep running their animations and timers.
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows",
            "--user-data-dir=\(profile.path)", "about:blank"
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Chromium writes its port and the browser's path to DevToolsActivePort once it listens.
        let portFile = profile.appendingPathComponent("DevToolsActivePort")
        for _ in 0..<600 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) {
                let lines = text.split(separator: "\n")
                if lines.count >= 2 {
                    return Chromium(
                        process: process, profile: profile, devToolsURL: "ws://127.0.0.1:\(lines[0])\(lines[1])")
                }
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw Failure(description: "Chromium did not open its DevTools endpoint within 60 s")
    }

    private init(process: Process, profile: URL, devToolsURL: String) {
        self.process = process
        self.profile = profile
        self.devToolsURL = devToolsURL
    }

    /// Stops the browser (killed if it is still running 10 s after SIGTERM) and removes its profile.
    ///
    /// Never `waitUntilExit()`: it has no deadline, and Foundation hears of the exit only once the browser's
    /// helper processes are gone too.
    func close() {
        if process.isRunning {
            process.terminate()
            let deadline = Date(timeIntervalSinceNow: 10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: profile)
    }
}
