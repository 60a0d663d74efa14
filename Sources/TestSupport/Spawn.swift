import CSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `posix_spawn` call for ``ChildProcess``: the file actions and attributes it needs.
enum Spawn {
    /// A failed call and its error number.
    struct Failure: Error {
        let call: String
        let errno: Int32
    }

    /// How the child comes to hold no descriptor but its standard three.
    enum Closing: Sendable, CaseIterable {
        /// The system's own way: glibc's `addclosefrom_np`, Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT`,
        /// the portable way elsewhere.
        case system
        /// The portable way everywhere: one close action per descriptor open at the spawn
        /// (what systems without the first get; chosen by tests to run it on any system).
        case eachOpenDescriptor
    }

    /// Starts the program with stdin from `/dev/null`, stdout and stderr on the given
    /// descriptors, every other descriptor closed and default signal handling; returns its ID.
    static func start(
        executable: String, arguments: [String], environment: [String: String], directory: String?,
        output: Int32, errors: Int32, closing: Closing = .system
    ) -> Result<pid_t, Failure> {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
        var failure: Failure?
        func check(_ call: String, _ result: Int32) {
            if failure == nil && result != 0 { failure = Failure(call: call, errno: result) }
        }
        let null = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        check("posix_spawn_file_actions_addopen", null)
        check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, output, 1))
        check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, errors, 2))
        if let directory { check("posix_spawn_file_actions_addchdir_np", cspawn_chdir(&actions, directory)) }
        check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &empty))
        check("posix_spawnattr_setsigdefault", posix_spawnattr_setsigdefault(&attributes, &defaults))
        let flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, flags))
        switch closing {
        case .system:
            // After setflags: on Darwin this adds a flag.
            check("posix_spawn_file_actions_addclosefrom_np", cspawn_close_from(&actions, &attributes, 3))
        case .eachOpenDescriptor:
            check("posix_spawn_file_actions_addclose", cspawn_close_each_from(&actions, 3))
        }
        if let failure { return .failure(failure) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure(Failure(call: "posix_spawn", errno: result))
    }
}
