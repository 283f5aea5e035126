import { ComingSoon } from "@/components/shell/coming-soon";

export default function Page() {
  return <ComingSoon section="nav.orders" />;
}
