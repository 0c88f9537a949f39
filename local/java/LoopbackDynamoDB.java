import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local as its own main starts it, but listening on 127.0.0.1 only:
 * it has no bind-address option, so its Jetty connectors are moved to the
 * loopback address before the server starts. Same arguments as the jar.
 *
 * With -Dtunesmith.exitWithStdin=true it also ends when its standard input
 * does: the local cloud holds the other end of that pipe, so the JVM cannot
 * outlive it however it dies (the job of child-guard.mjs for other emulators,
 * without a Node process in front of the JVM).
 */
public final class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    if (Boolean.getBoolean("tunesmith.exitWithStdin")) {
      Thread watch =
          new Thread(
              () -> {
                try {
                  while (System.in.read() != -1) {}
                } catch (java.io.IOException gone) {
                  // The pipe broke: the parent is gone all the same.
                }
                System.exit(0);
              },
              "exit-with-stdin");
      watch.setDaemon(true);
      watch.start();
    }
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    proxy.join();
  }
}
