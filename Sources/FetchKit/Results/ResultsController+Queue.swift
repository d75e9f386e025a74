import Synchronization

/// The controller's work, one command at a time and in order, without a task of its own while idle: the
/// first command of a burst starts a task that runs the queue dry and ends. A server keeps thousands of
/// controllers that are idle almost all the time; an idle one holds no task, no stream and no stack.
extension ResultsController {
    /// Queues `command`; it runs after every command queued before it, never beside another.
    func enqueue(_ command: ControllerCommand) {
        let start = queue.withLock { queue -> Bool in
            queue.pending.append(command)
            guard !queue.isDraining else { return false }
            queue.isDraining = true
            return true
        }
        if start { Task { await self.drain() } }
    }

    /// Runs `command` on the caller's task when the controller is idle (then whatever was queued meanwhile),
    /// or queues it behind the controller's current work.
    func run(_ command: ControllerCommand) async {
        let inline = queue.withLock { queue -> Bool in
            guard !queue.isDraining else {
                queue.pending.append(command)
                return false
            }
            queue.isDraining = true
            return true
        }
        guard inline else { return }
        await handle(command)
        await drain()
    }

    /// Runs queued commands until none is left.
    private func drain() async {
        while let command = nextCommand() { await handle(command) }
    }

    private func nextCommand() -> ControllerCommand? {
        queue.withLock { queue in
            guard queue.head < queue.pending.count else {
                queue.pending.removeAll(keepingCapacity: false)
                queue.head = 0
                queue.isDraining = false
                return nil
            }
            defer {
                queue.head += 1
                if queue.head >= 64 && queue.head * 2 >= queue.pending.count {
                    queue.pending.removeFirst(queue.head)
                    queue.head = 0
                }
            }
            return queue.pending[queue.head]
        }
    }
}
