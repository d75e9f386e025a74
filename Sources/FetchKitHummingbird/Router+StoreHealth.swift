#if Hummingbird
    import FetchKit
    import Foundation
    import Hummingbird

    extension RouterMethods {
        /// Mounts a store's health for an orchestrator's probes: `GET <path>/live` and `GET <path>/ready` answer 200
        /// when the store is live or ready (``StoreHealth``) and 503 when not, with the health as JSON.
        ///
        /// ```swift
        /// router.storeHealth("/health", store: store)
        /// // livenessProbe:  httpGet: { path: /health/live,  port: 8080 }
        /// // readinessProbe: httpGet: { path: /health/ready, port: 8080 }
        /// ```
        @discardableResult
        public func storeHealth(
            _ path: String, store: any PersistentStore, lagThreshold: Duration = .seconds(5)
        ) -> Self {
            get(RouterPath("\(path)/live")) { _, _ in
                healthResponse(store.health(lagThreshold: lagThreshold), passed: \.isLive)
            }
            get(RouterPath("\(path)/ready")) { _, _ in
                healthResponse(store.health(lagThreshold: lagThreshold), passed: \.isReady)
            }
            return self
        }
    }

    /// 200 when `passed` holds of `health`, else 503; the health as JSON.
    private func healthResponse(_ health: StoreHealth, passed: KeyPath<StoreHealth, Bool>) -> Response {
        // Strings and booleans: encoding cannot fail.
        let body = (try? JSONEncoder().encode(health)) ?? Data("{}".utf8)
        return Response(
            status: health[keyPath: passed] ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
#endif
