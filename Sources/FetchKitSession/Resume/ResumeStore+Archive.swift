import FetchKit
import Foundation

extension ResumeStore {
    /// Writes the states kept now to ``archive``, for the next process to start with (nothing without an
    /// archive). Call it when the sessions have closed — after the service group or `app.execute()` returns —
    /// so that the archive holds the last list each client received; it may also run at any time (a session
    /// that sends afterwards is not in it, and its client resets after the restart).
    ///
    /// ```swift
    /// try await ServiceGroup(services: [store, app, sessions], logger: logger).run()
    /// try resume.save()
    /// ```
    ///
    /// The file is replaced atomically (written beside it, then renamed) and readable by this user alone (0600):
    /// it holds the rows of every user's lists.
    ///
    /// - Throws: the file system's error; the previous archive is then left as it was.
    public func save() throws {
        guard let archive else { return }
        let now = ContinuousClock.now
        let sessions = kept.archived(at: now)
        try ResumeArchive(savedAt: Date(), sessions: sessions).save(to: archive)
        let rows = sessions.reduce(0) { $0 + $1.sent.reduce(0) { $0 + $1.list.count } }
        logger.info(
            "saved the resume states",
            metadata: ["sessions": "\(sessions.count)", "rows": "\(rows)", "archive": "\(archive.path)"])
    }

    /// Starts with the states of the archive at `url`: all that fit the bounds, or none — with a warning — when
    /// it cannot be read whole.
    func restore(from url: URL) {
        let archive: ResumeArchive
        do {
            guard let read = try ResumeArchive.load(from: url) else {
                logger.debug("no resume archive to restore", metadata: ["archive": "\(url.path)"])
                return
            }
            archive = read
        } catch {
            logger.warning(
                "ignored the resume archive: clients reset", metadata: ["archive": "\(url.path)", "error": "\(error)"])
            return
        }
        // The wall clock, between two processes; a clock set back counts as no time, an absurd one as forever.
        let (micros, overflow) = Date().microsecondsSince1970.subtractingReportingOverflow(
            archive.savedAt.microsecondsSince1970)
        let elapsed = overflow ? Duration.seconds(Int64.max) : .microseconds(micros)
        let restored = restore(archive, elapsed: elapsed)
        logger.info(
            "restored resume states",
            metadata: [
                "archive": "\(url.path)", "sessions": "\(restored)",
                "dropped": "\(archive.sessions.count - restored)"
            ])
    }
}
