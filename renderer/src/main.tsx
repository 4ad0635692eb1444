// Dashboard entry: styles, the query client and the router. Before the first render, a `/login?token=…` URL is
// traded for a session token (session.ts); nothing else happens at module load.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { App } from "./App";
import { createQueryClient } from "./api";
import { completeLogin } from "./session";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/pages.css";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");

const mount = root;
void completeLogin().then(() => {
  createRoot(mount).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
});
