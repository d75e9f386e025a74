import CSQLite
import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitSQLite

/// A database that cannot be written — a read-only file system, a write-protected file or directory — is
/// `readOnly` naming the file, whatever SQLite's code for it (`SQLITE_READONLY_*`, or a bare `SQLITE_CANTOPEN`),
/// and never a transient error a controller would retry.
@Suite("SQLite: read-only files and directories are readOnly")
struct SQLiteReadOnlyTests {
    /// `SQLITE_READONLY_DIRECTORY` (the macro is an expression Swift does not import).
    static let readOnlyDirectory = SQLITE_READONLY | (6 << 8)
    /// `SQLITE_CANTOPEN_ISDIR`.
    static let cantOpenIsDirectory = SQLITE_CANTOPEN | (2 << 8)

    private func mapped(_ code: Int32, errno: Int32?) -> FetchKitError {
        SQLiteErrorMapping.error(
            code: code, message: "unable to open database file", sql: nil, path: "/data/todos.sqlite",
            accessError: errno)
    }

    @Test("READONLY codes, and CANTOPEN for an unwritable file or directory, are readOnly naming the path")
    func mapping() {
        for (code, errno) in [
            (Self.readOnlyDirectory, nil), (SQLITE_READONLY, EROFS), (SQLITE_CANTOPEN, EROFS),
            (SQLITE_CANTOPEN, EACCES), (SQLITE_CANTOPEN, EPERM)
        ] as [(Int32, Int32?)] {
            let error = mapped(code, errno: errno)
            #expect(error.code == .readOnly, "\(code), errno \(String(describing: errno)): \(error)")
            #expect(!error.isTransient, "\(code): \(error)")
            #expect(error.message.contains("'/data/todos.sqlite'"), "\(error)")
            #expect(error.description.hasPrefix("the database is read-only: "), "\(error)")
        }
        #expect(mapped(SQLITE_CANTOPEN, errno: EROFS).message.contains(String(cString: strerror(EROFS))))
    }

    @Test("CANTOPEN for another reason stays a transient database error")
    func otherCantOpen() {
        for (code, errno) in [(SQLITE_CANTOPEN, nil), (SQLITE_CANTOPEN, EMFILE), (Self.cantOpenIsDirectory, ENOENT)]
            as [(Int32, Int32?)]
        {
            let error = mapped(code, errno: errno)
            #expect(error.code == .database && error.isTransient, "\(code): \(error)")
        }
        let plain = SQLiteErrorMapping.error(code: SQLITE_CANTOPEN, message: "m", sql: nil)
        #expect(plain.code == .database && plain.isTransient)
    }

    @Test("access(2) finds a writable file and directory writable, and a missing directory not read-only")
    func accessProbe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(SQLiteErrorMapping.accessError(writing: directory.path("new.sqlite")) == nil)
        let missing = SQLiteErrorMapping.accessError(writing: directory.path("missing/new.sqlite"))
        #expect(missing == ENOENT, "\(String(describing: missing))")
    }

    /// The real thing, on a write-protected directory and file. Root bypasses permission bits (tests run as root
    /// in CI), so there every open would succeed: the test runs only for other users, and the mapping tests above
    /// cover the codes SQLite gives.
    @Test(
        "a store in a write-protected directory, or on a write-protected file, is refused with readOnly",
        .disabled(if: getuid() == 0, "root ignores permission bits: run as another user to exercise this"))
    func writeProtected() async throws {
        let directory = try TemporaryDirectory()
        defer {
            chmod(directory.url.path, 0o755)
            directory.remove()
        }
        let existing = directory.path("todos.sqlite")
        let store = try await SQLiteStore.open(path: existing, schema: Fixtures.schema, options: .testing())
        try await store.seed()
        await store.close()
        #expect(chmod(existing, 0o444) == 0 && chmod(directory.url.path, 0o555) == 0)

        // A new file in the directory cannot be created.
        let created = await #expect(throws: FetchKitError.self) {
            _ = try await SQLiteStore.open(path: directory.path("new.sqlite"), schema: Fixtures.schema)
        }
        #expect(created?.code == .readOnly, "\(String(describing: created))")
        #expect(created?.message.contains(directory.path("new.sqlite")) == true, "\(String(describing: created))")
        #expect(created?.isTransient == false)

        // The existing file cannot be written: opening it fails, or (when SQLite can open it for reading) the
        // first write does.
        let written = await #expect(throws: FetchKitError.self) { try await openAndWrite(existing) }
        #expect(written?.code == .readOnly, "\(String(describing: written))")
        #expect(written?.message.contains(existing) == true, "\(String(describing: written))")
    }

    /// Opens a store on `path` and writes a todo in it, closing the store either way.
    private func openAndWrite(_ path: String) async throws {
        let store = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: .testing())
        do {
            try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: "refused")) }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
