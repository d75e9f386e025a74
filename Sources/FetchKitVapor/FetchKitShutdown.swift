#if Vapor
    import Vapor

    /// Ends FetchKit with the application: the live results sessions first (each closes with 1001), then the
    /// store, so that no session sees its store close under it.
    struct FetchKitShutdown: LifecycleHandler {
        let state: FetchKitState

        func shutdownAsync(_ application: Application) async {
            await stop(logger: application.logger)
        }

        /// The synchronous `shutdown()` cannot wait: the sessions are cancelled now, the store closed after them.
        func shutdown(_ application: Application) {
            let logger = application.logger
            Task { await stop(logger: logger) }
        }

        private func stop(logger: Logger) async {
            let running = state.sessions.count
            let left = await state.sessions.stop(within: state.shutdownGracePeriod)
            if left > 0 {
                logger.warning(
                    "live results sessions still closing when the store closes",
                    metadata: ["sessions": "\(left)", "gracePeriod": "\(state.shutdownGracePeriod)"])
            } else if running > 0 {
                logger.debug("live results sessions closed", metadata: ["sessions": "\(running)"])
            }
            await state.store?.close()
        }
    }
#endif
