import FetchKit

extension PersistentStore {
    /// Runs `body` with the store, then closes the store, whether `body` returned or threw.
    ///
    /// ```swift
    /// let todos = try await SQLiteStore.inMemory(schema: schema).closing { store in
    ///     try await store.fetch(FetchRequest<Todo>())
    /// }
    /// ```
    package func closing<Result>(after body: (Self) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(self)
        } catch {
            await close()
            throw error
        }
        await close()
        return result
    }
}
