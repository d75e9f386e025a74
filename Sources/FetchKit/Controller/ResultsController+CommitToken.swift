extension ResultsController {
    /// Waits until the controller has applied every transaction committed through `token`, wherever it was
    /// written: read-your-writes across the instances of an app that share a database.
    ///
    /// The instance that wrote hands the token to the client (``CommitToken``); the instance that serves the
    /// client's next request syncs after it before it answers.
    ///
    /// ```swift
    /// if let token = CommitToken(request.headers["FetchKit-Commit"] ?? "") {
    ///     try await controller.sync(after: token)
    /// }
    /// ```
    ///
    /// - Throws: what the store's ``PersistentStore/waitForPublication(through:)`` throws.
    public func sync(after token: CommitToken) async throws {
        try await store.waitForPublication(through: token)
        await sync()
    }
}
