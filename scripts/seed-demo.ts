import { CliError, openConfiguredDatabase, runScript } from "./cli";
import { seedDemo } from "./demo-data";

// npm run seed:demo: fills an empty database (the one the server uses) with a believable shop.

async function main() {
  if (process.argv.length > 2) throw new CliError("Usage: npm run seed:demo   (it takes no arguments)");
  const { database } = await openConfiguredDatabase();
  try {
    const added = await seedDemo(database.db, new Date());
    console.log(
      `Demo shop added: ${added.categories} categories, ${added.products} products, ${added.postageOptions} postage options, ` +
        `${added.orders} orders and ${added.messages} messages.`,
    );
  } finally {
    await database.close();
  }
}

runScript(main);
