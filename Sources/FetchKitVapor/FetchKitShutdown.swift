#if Vapor
    import Vapor

    /// Ends FetchKit with the application: the live results sessions first (each closes with 1001), then the
    /// store, so that no session sees its store close under it.
    struct FetchKitShutdown: LifecycleHandler {
        let state: FetchKitState

        func shutdownAsync(_ application: Application) async {
            await stop()
        }

        /// The synchronous `shutdown()` cannot wait: the sessions are closed now, the store after them.
        func shutdown(_ application: Application) {
            Task { await stop() }
        }

        private func stop() async {
            // Waits at most the grace period; the group logs the sessions still closing.
            await state.sessions.shutdown(within: state.shutdownGracePeriod)
            await state.store?.close()
        }
    }
#endif
